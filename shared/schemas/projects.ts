import * as z from 'zod/mini';
import { hasControlCharacter } from '../domain/text.ts';
import { atMost, BranchName } from './common.ts';

// An https URL or a GitHub-style `owner/name`.
const REPOSITORY = /^(https:\/\/[^\s/$.?#][^\s]*|[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+)$/;

export const CreateProjectBody = z
  .strictObject({
    name: z
      .string()
      .check(
        z.trim(),
        z.minLength(1, 'must not be empty'),
        atMost(100),
        z.refine((value: string) => !hasControlCharacter(value), 'must not contain control characters'),
      )
      .register(z.globalRegistry, {
        description: 'Trimmed first; then 1 to 100 characters, no control characters.',
      }),
    repository: z.optional(
      z.string().check(atMost(2048), z.regex(REPOSITORY, 'must be an https URL or owner/name')),
    ),
    productionBranch: z.optional(BranchName).register(z.globalRegistry, { default: 'main' }),
  })
  .register(z.globalRegistry, {
    id: 'CreateProjectBody',
    description: 'Unknown fields are refused (400 naming the field).',
    examples: [{ name: 'web', repository: 'acme/web', productionBranch: 'main' }],
  });

export type CreateProjectInput = z.output<typeof CreateProjectBody>;
