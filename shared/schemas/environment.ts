import * as z from 'zod/mini';
import {
  ENVIRONMENT_TARGETS,
  MAX_VARIABLE_KEY_LENGTH,
  MAX_VARIABLE_VALUE_BYTES,
  MAX_VARIABLES_PER_PROJECT,
  VARIABLE_KEY_PATTERN,
  VARIABLE_TYPES,
} from '#shared/model/environment-variables.ts';
import { atMost } from './common.ts';

// A project's environment variables: what a user sends (what the API shows is in
// environment-resources.ts, which only the document loads).

const utf8Bytes = (value: string): number => new TextEncoder().encode(value).length;

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

const VariableValue = z
  .string()
  .check(
    // A cheap bound first (a character is at most 4 bytes, at least 1), then the bytes themselves.
    atMost(MAX_VARIABLE_VALUE_BYTES, `must be at most ${MAX_VARIABLE_VALUE_BYTES} bytes in UTF-8`),
    z.refine(
      (value: string) => utf8Bytes(value) <= MAX_VARIABLE_VALUE_BYTES,
      `must be at most ${MAX_VARIABLE_VALUE_BYTES} bytes in UTF-8`,
    ),
  )
  .register(z.globalRegistry, {
    description: `Any string of at most ${MAX_VARIABLE_VALUE_BYTES} bytes in UTF-8 (16 KiB). Stored encrypted, whatever the type.`,
    examples: ['postgres://db.internal:5432/app'],
  });

const Targets = z
  .array(z.enum(ENVIRONMENT_TARGETS))
  .check(z.minLength(1, 'must name at least one target'), z.maxLength(ENVIRONMENT_TARGETS.length * 2))
  .register(z.globalRegistry, {
    description:
      'Where the variable applies: `production` (deployments of the production branch), `preview` (other branches), `development` (local work). Duplicates count once.',
    examples: [['production', 'preview']],
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

/** `{id}` and `{envId}` in a variable's path; their format is checked by the domain (404 otherwise). */
export const VariableParams = z.object({
  id: z.string().check(atMost(64)),
  envId: z
    .string()
    .check(atMost(64))
    .register(z.globalRegistry, {
      description: "The variable's id as the API returned it; any other answers 404.",
      examples: ['env_01JD8Z6H7J8K9M0N1P2Q3R4S5T'],
    }),
});
