import * as z from 'zod/mini';
import { atMost, BranchName } from './common.ts';

export const CreateDeploymentBody = z.strictObject({
  projectId: z.string().check(atMost(64), z.minLength(1, 'must not be empty')),
  branch: z.optional(BranchName),
});

export type CreateDeploymentInput = z.output<typeof CreateDeploymentBody>;
