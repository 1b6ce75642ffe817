import * as z from 'zod/mini';
import { atMost } from './common.ts';
import { BranchName, DisplayName } from './names.ts';

// An https URL or a GitHub-style `owner/name`.
const REPOSITORY = /^(https:\/\/[^\s/$.?#][^\s]*|[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+)$/;

const Repository = z.string().check(atMost(2048), z.regex(REPOSITORY, 'must be an https URL or owner/name'));

export const CreateProjectBody = z
  .strictObject({
    name: DisplayName,
    repository: z.optional(Repository),
    productionBranch: z.optional(BranchName).register(z.globalRegistry, { default: 'main' }),
  })
  .register(z.globalRegistry, {
    id: 'CreateProjectBody',
    description: 'Unknown fields are refused (400 naming the field).',
    examples: [{ name: 'web', repository: 'acme/web', productionBranch: 'main' }],
  });

export type CreateProjectInput = z.output<typeof CreateProjectBody>;

/** The fields a PATCH may change: each as create validates it; `repository: null` removes it. */
export const UpdateProjectBody = z
  .strictObject({
    name: z.optional(DisplayName),
    repository: z.optional(z.nullable(Repository)),
    productionBranch: z.optional(BranchName),
  })
  .check(
    z.refine(
      (body) => Object.keys(body).length > 0,
      'must change at least one of name, repository and productionBranch',
    ),
  )
  .register(z.globalRegistry, {
    id: 'UpdateProjectBody',
    description:
      'At least one field; each is validated as when creating a project, and `repository: null` removes it. Unknown fields are refused (400 naming the field).',
    examples: [{ name: 'web-app', productionBranch: 'release' }],
  });

export type UpdateProjectInput = z.output<typeof UpdateProjectBody>;
