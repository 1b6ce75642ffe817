import * as z from 'zod/mini';
import { hasControlCharacter } from '../domain/text.ts';
import { BranchName } from './common.ts';

// An https URL or a GitHub-style `owner/name`.
const REPOSITORY = /^(https:\/\/[^\s/$.?#][^\s]*|[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+)$/;

export const CreateProjectBody = z.strictObject({
  name: z.string().check(
    z.trim(),
    z.minLength(1, 'must not be empty'),
    z.maxLength(100, 'must be at most 100 characters'),
    z.refine((value: string) => !hasControlCharacter(value), 'must not contain control characters'),
  ),
  repository: z.optional(
    z
      .string()
      .check(
        z.maxLength(2048, 'must be at most 2048 characters'),
        z.regex(REPOSITORY, 'must be an https URL or owner/name'),
      ),
  ),
  productionBranch: z.optional(BranchName),
});

export type CreateProjectInput = z.output<typeof CreateProjectBody>;
