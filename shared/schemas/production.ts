import * as z from 'zod/mini';
import { deploymentRef } from './common.ts';

// Moving a project's production pointer by hand (shared/domain/production.ts has the rules).

export const PromoteBody = z
  .strictObject({
    deploymentId: deploymentRef().register(z.globalRegistry, {
      description:
        'A `ready` deployment of this project, preview ones included (409 naming its status otherwise; 404 for any other id).',
    }),
  })
  .register(z.globalRegistry, {
    id: 'PromoteBody',
    description: 'Unknown fields are refused (400 naming the field).',
    examples: [{ deploymentId: 'dpl_01JD8Z4B2C3D4E5F6G7H8J9K0M' }],
  });

export type PromoteInput = z.output<typeof PromoteBody>;

export const RollbackBody = z
  .strictObject({
    deploymentId: z.optional(deploymentRef()).register(z.globalRegistry, {
      description:
        'A `ready` deployment of this project that was production before. Without it, the production deployment before the current one (`{}` as the body).',
    }),
  })
  .register(z.globalRegistry, {
    id: 'RollbackBody',
    description: 'Unknown fields are refused (400 naming the field).',
    examples: [{}, { deploymentId: 'dpl_01JD8Z4A1B2C3D4E5F6G7H8J9K' }],
  });

export type RollbackInput = z.output<typeof RollbackBody>;
