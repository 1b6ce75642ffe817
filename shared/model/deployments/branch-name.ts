import { hasControlCharacter } from '#shared/model/text.ts';

// Git's rules for a branch name (`git check-ref-format --branch`), plus the contract's length cap.
// See git-check-ref-format(1): each rule below is one of its numbered rules.

export const MAX_BRANCH_LENGTH = 255;

// Besides control characters and DEL: space, ~ ^ : ? * [ and backslash (rules 4 and 5).
const FORBIDDEN_CHARACTER = /[ ~^:?*[\\]/;

export function isValidBranchName(name: string): boolean {
  if (name.length === 0 || name.length > MAX_BRANCH_LENGTH) return false;
  if (name.startsWith('-')) return false; // --branch: would read as an option
  if (name === '@') return false; // rule 9
  if (hasControlCharacter(name) || FORBIDDEN_CHARACTER.test(name)) return false;
  if (name.includes('..') || name.includes('@{') || name.includes('//')) return false; // rules 3, 8, 6
  if (name.startsWith('/') || name.endsWith('/') || name.endsWith('.')) return false; // rules 6, 7
  // Rule 1: no component may start with '.' or end with '.lock'.
  return name.split('/').every((part) => !part.startsWith('.') && !part.endsWith('.lock'));
}
