import * as z from 'zod/mini';
import {
  ENVIRONMENT_TARGETS,
  MAX_VARIABLE_KEY_LENGTH,
  MAX_VARIABLES_PER_PROJECT,
  VARIABLE_KEY_PATTERN,
  VARIABLE_TYPES,
} from '#shared/model/environment-variables.ts';
import { atMost } from '#shared/schemas/common.ts';
import { Targets, VariableValue } from './variable-fields.ts';

// A project's environment variables: what a user sends to create one or replace them all. A module of
// registered schemas is bundled whole, so each function bundles only its own body's: a change is in
// environment-update.ts, the path's ids in variable-params.ts, the fields they share in
// variable-fields.ts (what the API shows is in environment-resources.ts, which only the document loads).

export type { UpdateVariableInput } from './update.ts';

const VariableKey = z
  .string()
  .check(
    atMost(MAX_VARIABLE_KEY_LENGTH),
    z.minLength(1, 'must not be empty'),
    z.regex(VARIABLE_KEY_PATTERN, 'must be letters, digits and underscores, not starting with a digit'),
  )
  .register(z.globalRegistry, {
    description: `The variable's name: \`${VARIABLE_KEY_PATTERN.source}\`, at most ${MAX_VARIABLE_KEY_LENGTH} characters. The same key may exist several times with disjoint targets.`,
    examples: ['DATABASE_URL'],
  });

const VariableType = z.enum(VARIABLE_TYPES).register(z.globalRegistry, {
  description:
    '`plain` values are shown in answers; `secret` values never are (write-only: only a build reads them). Both are stored encrypted.',
});

const NewVariable = z.strictObject({
  key: VariableKey,
  value: VariableValue,
  targets: z.optional(Targets).register(z.globalRegistry, { default: [...ENVIRONMENT_TARGETS] }),
  type: z.optional(VariableType).register(z.globalRegistry, { default: 'plain' }),
});

export const CreateVariableBody = NewVariable.register(z.globalRegistry, {
  id: 'CreateVariableBody',
  description:
    'A new variable. A key that already exists with an overlapping target is a 409 naming both. Unknown fields are refused (400 naming the field).',
  examples: [{ key: 'API_TOKEN', value: 's3cr3t', targets: ['production'], type: 'secret' }],
});

export type CreateVariableInput = z.output<typeof CreateVariableBody>;

export const ReplaceEnvironmentBody = z
  .strictObject({
    variables: z
      .array(NewVariable)
      .check(
        z.maxLength(
          MAX_VARIABLES_PER_PROJECT,
          `must hold at most ${MAX_VARIABLES_PER_PROJECT} variables (a project's limit)`,
        ),
      )
      .register(z.globalRegistry, {
        description: `The project's whole new set, at most ${MAX_VARIABLES_PER_PROJECT} variables; empty removes every variable.`,
      }),
  })
  .register(z.globalRegistry, {
    id: 'ReplaceEnvironmentBody',
    description:
      "Replaces all of the project's variables in one atomic step: either the whole new set is in place, or (any error) the old one is untouched. Two items with the same key and an overlapping target are a 409.",
    examples: [
      {
        variables: [
          { key: 'NODE_ENV', value: 'production', targets: ['production'] },
          { key: 'API_TOKEN', value: 's3cr3t', type: 'secret' },
        ],
      },
    ],
  });

export type ReplaceEnvironmentInput = z.output<typeof ReplaceEnvironmentBody>;
