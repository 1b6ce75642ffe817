import * as z from 'zod/mini';
import { atMost, BranchName, DisplayName } from './common.ts';

// An https URL or a GitHub-style `owner/name`.
const REPOSITORY = /^(https:\/\/[^\s/$.?#][^\s]*|[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+)$/;

export const CreateProjectBody = z
  .strictObject({
    name: DisplayName,
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
