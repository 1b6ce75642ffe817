import * as z from 'zod/mini';
import { BranchName } from './common.ts';

export const CreateDeploymentBody = z.strictObject({
  projectId: z.string().check(z.maxLength(64, 'must be at most 64 characters')),
  branch: z.optional(BranchName),
});

export type CreateDeploymentInput = z.output<typeof CreateDeploymentBody>;
