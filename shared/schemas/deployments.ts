import * as z from 'zod/mini';
import { atMost, BranchName } from './common.ts';

export const CreateDeploymentBody = z
  .strictObject({
    projectId: z.string().check(atMost(64), z.minLength(1, 'must not be empty')).register(z.globalRegistry, {
      description: "One of the caller's projects; any other id answers 404.",
    }),
    branch: z.optional(BranchName).register(z.globalRegistry, {
      description: "Defaults to the project's production branch.",
    }),
  })
  .register(z.globalRegistry, {
    id: 'CreateDeploymentBody',
    description: 'Unknown fields are refused (400 naming the field).',
    examples: [{ projectId: 'prj_01JD8Z3Q4R5S6T7V8W9X0Y1Z2A', branch: 'main' }],
  });

export type CreateDeploymentInput = z.output<typeof CreateDeploymentBody>;
