// The SDK's names, mechanically (docs/clients.md):
//
// - group: the operation's first tag in camelCase (`Projects` → `projects`), or GROUP_OF_TAG;
// - method: the operationId without the group's noun (singular or plural), the verb first:
//   `listProjects` → `list`, `listDeploymentEvents` → `listEvents`; what precedes the noun names an
//   owner: `listProjectDeployments` → `listForProject`, and a trailing preposition goes with the noun:
//   `waitForDeployment` → `wait`; an operationId without the noun stays as it is (`getHealth`);
//   METHOD_OF_OPERATION overrides, and two operations with one name stop the generator.

/** Tags whose camelCase is not the group's name. */
export const GROUP_OF_TAG: Record<string, string> = { 'API keys': 'keys' };
/** operationIds whose mechanical method name is not the one wanted. */
export const METHOD_OF_OPERATION: Record<string, string> = {
  // The group is the log (`Audit log`), its items events: `auditLog.list`, not `auditLog.listAuditEvents`.
  listAuditEvents: 'list',
};

const PREPOSITIONS = new Set(['For', 'Of', 'By', 'To', 'From', 'In', 'On', 'At']);

const words = (camel: string): string[] => camel.match(/[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])/g) ?? [];
const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
const lower = (word: string) => word.charAt(0).toLowerCase() + word.slice(1);
const camel = (parts: string[]) => lower(parts.map((part) => capital(part.toLowerCase())).join(''));

/** The group of a tag: `Projects` → `projects`, `Environment variables` → `environmentVariables`. */
export function groupOfTag(tag: string): string {
  return GROUP_OF_TAG[tag] ?? camel(tag.split(/[^A-Za-z0-9]+/).filter(Boolean));
}

const singular = (word: string) =>
  word.endsWith('ies') ? `${word.slice(0, -3)}y` : word.endsWith('s') ? word.slice(0, -1) : word;

/** The method of an operationId in its group (the rule at the top of this file). */
export function methodName(operationId: string, group: string): string {
  const override = METHOD_OF_OPERATION[operationId];
  if (override) return override;
  const [verb = operationId, ...rest] = words(operationId);
  const plural = words(group).map(capital);
  const nouns = [plural, [...plural.slice(0, -1), singular(plural.at(-1) ?? '')]];
  for (let at = 0; at < rest.length; at += 1) {
    const noun = nouns.find((candidate) => candidate.every((word, i) => rest[at + i] === word));
    if (!noun) continue;
    const before = rest.slice(0, at);
    const after = rest.slice(at + noun.length);
    if (before.length === 0) return lower(verb) + after.join('');
    if (PREPOSITIONS.has(before.at(-1) ?? ''))
      return lower(verb) + [...before.slice(0, -1), ...after].join('');
    return `${lower(verb)}${after.join('')}For${before.join('')}`;
  }
  return operationId;
}
