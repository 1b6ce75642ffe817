import * as z from 'zod/mini';
import { Targets, VariableValue } from './variable-fields.ts';

// A change of one environment variable (PATCH): its value, its targets, never its type.

export const UpdateVariableBody = z
  .strictObject({
    value: z.optional(VariableValue),
    targets: z.optional(Targets),
    type: z.optional(z.unknown()).register(z.globalRegistry, {
      description: 'Never accepted: a variable keeps its type (delete it and create it again instead).',
    }),
  })
  .check(
    z.refine((body) => body.type === undefined, {
      message: 'cannot change: delete the variable and create it again with the other type',
      path: ['type'],
    }),
    z.refine(
      (body) => body.value !== undefined || body.targets !== undefined,
      'must change value or targets',
    ),
  )
  .register(z.globalRegistry, {
    id: 'UpdateVariableBody',
    description:
      'At least one of `value` and `targets`. The type of a variable does not change (400 naming `type`). Unknown fields are refused.',
    examples: [{ value: 'n3w-s3cr3t' }, { targets: ['production', 'preview'] }],
  });

export type UpdateVariableInput = z.output<typeof UpdateVariableBody>;
