import * as z from 'zod/mini';
import { ENVIRONMENT_TARGETS, MAX_VARIABLE_VALUE_BYTES } from '#shared/model/environment-variables.ts';
import { atMost } from '#shared/schemas/common.ts';

// The fields a new variable and a change of one share (environment.ts, environment-update.ts).

const utf8Bytes = (value: string): number => new TextEncoder().encode(value).length;

export const VariableValue = z
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

export const Targets = z
  .array(z.enum(ENVIRONMENT_TARGETS))
  .check(z.minLength(1, 'must name at least one target'), z.maxLength(ENVIRONMENT_TARGETS.length * 2))
  .register(z.globalRegistry, {
    description:
      'Where the variable applies: `production` (deployments of the production branch), `preview` (other branches), `development` (local work). Duplicates count once.',
    examples: [['production', 'preview']],
  });
