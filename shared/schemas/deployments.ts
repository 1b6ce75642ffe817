import * as z from 'zod/mini';
import {
  DEPLOYMENT_STATES,
  type DeploymentState,
  REPORTABLE_STATES,
} from '#shared/model/deployment-states.ts';
import { DEPLOYMENT_TARGETS } from '#shared/model/deployment-target.ts';
import { hasControlCharacter } from '#shared/model/text.ts';
import { atMost } from './common.ts';
import { BranchName } from './names.ts';
import { PageQuery } from './page-query.ts';

/**
 * An id a client names a deployment or project by; its prefix and form are checked where it is looked
 * up (404). A new schema each call, so that each field can carry its own description.
 */
export const deploymentRef = () => z.string().check(atMost(64), z.minLength(1, 'must not be empty'));

const DeploymentRef = deploymentRef();

export const CreateDeploymentBody = z
  .strictObject({
    projectId: z.optional(DeploymentRef).register(z.globalRegistry, {
      description:
        "One of the caller's projects; any other id answers 404. Required unless `redeployOf` is given.",
    }),
    branch: z.optional(BranchName).register(z.globalRegistry, {
      description: "Defaults to the project's production branch. Not with `redeployOf`.",
    }),
    redeployOf: z.optional(DeploymentRef).register(z.globalRegistry, {
      description:
        "One of the caller's deployments: deploys its project, branch and commit again, with its target. Instead of `projectId` and `branch`; any other id answers 404.",
    }),
    target: z.optional(z.enum(DEPLOYMENT_TARGETS)).register(z.globalRegistry, {
      description:
        "`production` or `preview`; by default `production` when the branch is the project's production branch, else `preview`. Not with `redeployOf` (a redeploy keeps its original's).",
    }),
  })
  .check(
    z.refine((body) => body.projectId !== undefined || body.redeployOf !== undefined, {
      message: 'is required',
      path: ['projectId'],
    }),
    z.refine((body) => body.redeployOf === undefined || body.projectId === undefined, {
      message: 'cannot be given with redeployOf',
      path: ['projectId'],
    }),
    z.refine((body) => body.redeployOf === undefined || body.branch === undefined, {
      message: 'cannot be given with redeployOf',
      path: ['branch'],
    }),
    z.refine((body) => body.redeployOf === undefined || body.target === undefined, {
      message: 'cannot be given with redeployOf',
      path: ['target'],
    }),
  )
  .register(z.globalRegistry, {
    id: 'CreateDeploymentBody',
    description:
      'Either `projectId` (and `branch`), or `redeployOf` alone (400 naming the other field). Unknown fields are refused (400 naming the field).',
    examples: [
      { projectId: 'prj_01JD8Z3Q4R5S6T7V8W9X0Y1Z2A', branch: 'main' },
      { projectId: 'prj_01JD8Z3Q4R5S6T7V8W9X0Y1Z2A', branch: 'release-candidate', target: 'production' },
      { redeployOf: 'dpl_01JD8Z4B2C3D4E5F6G7H8J9K0M' },
    ],
  });

export type CreateDeploymentInput = z.output<typeof CreateDeploymentBody>;

const COMMIT_SHA = /^[0-9a-fA-F]{7,40}$/;

function isHttpsUrl(value: string): boolean {
  if (hasControlCharacter(value) || !URL.canParse(value)) return false;
  const url = new URL(value);
  return url.protocol === 'https:' && url.hostname !== '' && url.username === '' && url.password === '';
}

export const ReportDeploymentEventBody = z
  .strictObject({
    status: z.enum(REPORTABLE_STATES).register(z.globalRegistry, {
      description:
        'The status it moved to. Allowed: `queued → building | canceled`, `building → ready | error | canceled`; anything else is 409 naming the current status.',
    }),
    message: z.optional(z.string().check(atMost(1000))).register(z.globalRegistry, {
      description: "Shown in the history; on `error` it becomes the deployment's `errorMessage`.",
    }),
    url: z
      .optional(z.string().check(atMost(2048), z.refine(isHttpsUrl, 'must be an https URL')))
      .register(z.globalRegistry, { description: 'Where the deployment is served (https only).' }),
    commitSha: z
      .optional(z.string().check(z.regex(COMMIT_SHA, 'must be 7 to 40 hexadecimal characters')))
      .register(z.globalRegistry, { description: 'The commit being built, 7 to 40 hex characters.' }),
  })
  .register(z.globalRegistry, {
    id: 'ReportDeploymentEventBody',
    description: 'A status report from the builder. Unknown fields are refused (400 naming the field).',
    examples: [{ status: 'ready', url: 'https://web-4f2a.example.app', commitSha: '9fceb02' }],
  });

export type DeploymentReport = z.output<typeof ReportDeploymentEventBody>;

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
  projectId: z.optional(DeploymentRef).register(z.globalRegistry, {
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
