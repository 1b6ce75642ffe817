import * as z from 'zod/mini';
import { DEPLOYMENT_TARGETS } from '#shared/model/deployments/target.ts';
import { ENVIRONMENT_TARGETS, VARIABLE_TYPES } from '#shared/model/environment-variables.ts';
import { NextCursor, prefixedId, Timestamp } from '#shared/schemas/resources.ts';

// A project's environment variables as the API shows them. A `secret`'s value is in no answer but a
// build's `build-env`: its schema has no field for it. Like resources.ts, only the document imports
// this module at run time.

const exampleVariable = {
  id: 'env_01JD8Z6H7J8K9M0N1P2Q3R4S5T',
  key: 'NODE_ENV',
  targets: ['production', 'preview'],
  type: 'plain',
  value: 'production',
  createdAt: '2026-11-22T09:15:42.123Z',
  updatedAt: '2026-11-22T09:15:42.123Z',
} as const;

export const EnvironmentVariable = z
  .strictObject({
    id: prefixedId('env', exampleVariable.id),
    key: z.string(),
    targets: z.array(z.enum(ENVIRONMENT_TARGETS)),
    type: z.enum(VARIABLE_TYPES),
    value: z.optional(z.string()).register(z.globalRegistry, {
      description:
        'Present for `plain` variables only. A `secret` has no `value` field at all, in every answer of every route: it can be replaced (PATCH) but never read back. Only a build reads it, through `GET /deployments/{id}/build-env`.',
    }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .register(z.globalRegistry, {
    id: 'EnvironmentVariable',
    description: "One of a project's environment variables. A `secret` never carries its value.",
    examples: [
      exampleVariable,
      {
        ...exampleVariable,
        id: 'env_01JD8Z6H7J8K9M0N1P2Q3R4S5V',
        key: 'API_TOKEN',
        type: 'secret',
        value: undefined,
      },
    ],
  });

export const EnvironmentVariableList = z
  .strictObject({ variables: z.array(EnvironmentVariable), nextCursor: NextCursor })
  .register(z.globalRegistry, {
    id: 'EnvironmentVariableList',
    description: "A page of a project's variables, newest first.",
  });

export const EnvironmentVariableSet = z
  .strictObject({ variables: z.array(EnvironmentVariable) })
  .register(z.globalRegistry, {
    id: 'EnvironmentVariableSet',
    description: "The project's whole set after a replace, newest first (every variable has a new id).",
  });

export const BuildEnvironment = z
  .strictObject({
    variables: z.record(z.string(), z.string()).register(z.globalRegistry, {
      description: 'Each variable of the target by key, secrets decrypted.',
      examples: [{ NODE_ENV: 'production', API_TOKEN: 's3cr3t' }],
    }),
    target: z.enum(DEPLOYMENT_TARGETS),
  })
  .register(z.globalRegistry, {
    id: 'BuildEnvironment',
    description:
      "The variables a deployment builds with: those of its target as they were when it was created (later changes do not reach it). Readable with a `build` key only, while the deployment is queued or building; every read is recorded in the deployment's events.",
  });
