import * as z from 'zod/mini';
import { DEPLOYMENT_STATES, type DeploymentState } from '#shared/model/deployments/states.ts';
import { DEPLOYMENT_TARGETS } from '#shared/model/deployments/target.ts';
import { atMost, deploymentRef } from '#shared/schemas/common.ts';
import { BranchName } from '#shared/schemas/names.ts';
import { PageQuery } from '#shared/schemas/page-query.ts';

// The queries that list and wait for deployments, apart from the bodies that make and report them
// (deployments.ts): a module of registered schemas is bundled whole, and a reader's function has no
// use for the writers' schemas.

const STATUS_LIST_MESSAGE = `must be a comma-separated list of: ${DEPLOYMENT_STATES.join(', ')}`;

const isState = (value: string): value is DeploymentState =>
  (DEPLOYMENT_STATES as readonly string[]).includes(value);

/** How the document shows `status`: the comma-separated text the client sends. */
const asStatusList = ({ jsonSchema }: { jsonSchema: Record<string, unknown> }): void => {
  const states = DEPLOYMENT_STATES.join('|');
  for (const key of Object.keys(jsonSchema)) if (key !== 'description') delete jsonSchema[key];
  Object.assign(jsonSchema, {
    type: 'string',
    maxLength: 100,
    pattern: `^(${states})(,(${states}))*$`,
    examples: ['ready,error'],
  });
};

export const StatusList = z
  .pipe(
    z.string().check(
      atMost(100, STATUS_LIST_MESSAGE),
      z.refine((value: string) => value.split(',').every(isState), STATUS_LIST_MESSAGE),
    ),
    z.transform((value: string) => DEPLOYMENT_STATES.filter((state) => value.split(',').includes(state))),
  )
  .register(z.globalRegistry, {
    description: `Only deployments in one of these states, e.g. \`ready,error\`. States: ${DEPLOYMENT_STATES.join(', ')}.`,
    override: asStatusList,
  });

const filters = {
  status: z.optional(StatusList),
  branch: z
    .optional(BranchName)
    .register(z.globalRegistry, { description: 'Only deployments of this branch.' }),
  target: z
    .optional(z.enum(DEPLOYMENT_TARGETS))
    .register(z.globalRegistry, { description: 'Only deployments with this target.' }),
};

/** `?limit=&cursor=&status=&branch=&target=` on a project's deployments. */
export const ProjectDeploymentsQuery = z.extend(PageQuery, filters);

/** `?limit=&cursor=&projectId=&status=&branch=&target=` on all of the caller's deployments. */
export const DeploymentsQuery = z.extend(PageQuery, {
  projectId: z.optional(deploymentRef()).register(z.globalRegistry, {
    description: "Only this project's deployments; another user's project or an unknown id answers 404.",
  }),
  ...filters,
});

export type DeploymentFilterQuery = z.output<typeof DeploymentsQuery>;

/** The longest a wait may last: under API Gateway's 29 s integration timeout, with room for the work. */
export const MAX_WAIT_SECONDS = 25;
export const DEFAULT_WAIT_SECONDS = 20;

/** How the document shows `timeout`: the number it is. */
const asWaitSeconds = ({ jsonSchema }: { jsonSchema: Record<string, unknown> }): void => {
  delete jsonSchema.pattern;
  Object.assign(jsonSchema, {
    type: 'integer',
    minimum: 1,
    maximum: MAX_WAIT_SECONDS,
    default: DEFAULT_WAIT_SECONDS,
  });
};

const WAIT_SECONDS_MESSAGE = `must be a whole number of seconds from 1 to ${MAX_WAIT_SECONDS}`;

/** `?status=&timeout=` on a wait. */
export const WaitQuery = z.object({
  status: z.optional(StatusList).register(z.globalRegistry, {
    description: `The states to wait for, e.g. \`ready,error\`; any terminal state (ready, error, canceled) unless given. States: ${DEPLOYMENT_STATES.join(', ')}.`,
    override: asStatusList,
  }),
  timeout: z
    .optional(
      z.pipe(
        z.string().check(z.regex(/^[0-9]{1,2}$/, WAIT_SECONDS_MESSAGE)),
        z
          .transform((value: string) => Number(value))
          .check(z.refine((n: number) => n >= 1 && n <= MAX_WAIT_SECONDS, WAIT_SECONDS_MESSAGE)),
      ),
    )
    .register(z.globalRegistry, {
      description: `How long to wait at most, in whole seconds, 1 to ${MAX_WAIT_SECONDS}; ${DEFAULT_WAIT_SECONDS} unless given.`,
      override: asWaitSeconds,
    }),
});

export type WaitQueryInput = z.output<typeof WaitQuery>;
