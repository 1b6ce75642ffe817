import * as z from 'zod/mini';
import { REPORTABLE_STATES } from '#shared/model/deployments/states.ts';
import { DEPLOYMENT_TARGETS } from '#shared/model/deployments/target.ts';
import { hasControlCharacter } from '#shared/model/text.ts';
import { atMost, deploymentRef } from '#shared/schemas/common.ts';
import { BranchName } from '#shared/schemas/names.ts';

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
