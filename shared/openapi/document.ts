import * as z from 'zod/mini';
import {
  createDocument,
  type oas31,
  type ZodOpenApiPathItemObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
} from 'zod-openapi';
import { type ErrorCode, errorCatalogue, errorCodes } from '#shared/model/error-catalogue.ts';
import { type ApiGroup, type EndpointRoute, operations } from '#shared/routes.ts';
import type { OpenApiDocumentBody } from '#shared/schemas/service-bodies.ts';
import { errorDescriptions } from './error-descriptions.ts';
import { BEARER_SCHEME, operationOf } from './operations.ts';
import { unmatchedResponsesOf } from './unmatched-responses.ts';
import { webhookEntries } from './webhooks.ts';

// The OpenAPI 3.1 document, generated from the route table, the zod schemas it names, the error
// catalogue and the webhook events' schemas: the same sources the functions run on. Built on first use and kept (one per process).
// `npm run openapi` writes it to shared/openapi/openapi.json, the published file the docs function
// serves (published-document.ts); no function imports this module, so zod-openapi is in no bundle.

// zod-openapi builds schemas with zod's classic API, whose first schema installs English error
// messages for every zod schema in the process. The functions validate with zod/mini, which has none,
// and word their own messages from the bare issues (shared/http/input/validate-input.ts). The tests load
// this module beside every function in one process: an error map that adds no message keeps the
// functions' answers the same as in Lambda, and classic zod only installs its own when none is set.
z.config({ localeError: () => undefined });

/** The document's version: the API's major version (the platform stage is `v1`), then revisions. */
const DOCUMENT_VERSION = '1.0.0';

const servers: Record<ApiGroup, oas31.ServerObject> = {
  platform: {
    url: '{base_url}',
    description:
      'The versioned platform API: projects and deployments. Every request needs an API key and is rate limited per key.',
    variables: {
      base_url: {
        default: 'http://localhost:3000/v1',
        description:
          "`npm start`'s address; in AWS the stack's `BaseUrl` output (it ends in the stage, `/v1`). As served by `GET /openapi.json`, the address of the API that served it.",
      },
    },
  },
  backend: {
    url: '{backend_url}',
    description:
      'Health, sign-up and login (which issues API keys), the admin listing of users, and this document.',
    variables: {
      backend_url: {
        default: 'http://localhost:3000',
        description:
          "`npm start`'s address; in AWS the stack's `BackendUrl` output. As served by `GET /openapi.json`, the address it was fetched from.",
      },
    },
  },
};

const tagDescriptions: Record<string, string> = {
  Projects: "What gets deployed. A key sees only its own user's projects.",
  Deployments: "Deployments of a project's branches.",
  Production:
    'Which deployment a project serves in production (`production` on the project), and how it moves. **Automatically:** a deployment whose `target` is `production` becomes production when it becomes `ready`, if it was created after the current production deployment (an older build that finishes late never replaces a newer one) and `autoPromotion` is on. **Promote:** any `ready` deployment of the project, previews included; turns `autoPromotion` back on (it does not promote newer ready deployments after the fact). **Rollback:** back to a `ready` deployment that was production before, by default the one before the current (repeated rollbacks walk further back); turns `autoPromotion` off, so that a build in flight does not undo it, until the next promote. Every move is in the production history and sends `project.production_changed`.',
  Environment:
    "A project's environment variables, per target (`production`, `preview`, `development`). Every value is stored encrypted; a `secret` is write-only: no answer but a build's `build-env` ever carries it. Each deployment builds with a snapshot of its target's variables taken when it was created, read by a `build` key while it is queued or building, and every read is recorded in its events.",
  Webhooks:
    'Subscriptions that POST events to a URL of yours. Each delivery is signed the Standard Webhooks way (`webhook-id`, `webhook-timestamp`, `webhook-signature`) and its body is described under `webhooks`, one entry per event type; `verifyWebhook` of `@platform-api/client` checks one and returns it typed.',
  Auth: 'Accounts and API keys. Rate limited per source address (and login per email address too).',
  Users: 'Administration.',
  Service: 'Whether the service can serve.',
  Documentation: 'This document and the page that renders it.',
};

const errorTable = (): string =>
  [
    '| Code | Status | Meaning |',
    '| --- | --- | --- |',
    ...errorCodes.map(
      (code: ErrorCode) =>
        `| \`${code}\` | ${errorCatalogue[code].status} | ${errorDescriptions[code].description} |`,
    ),
  ].join('\n');

const description = (): string =>
  `The REST API of a deployment platform, in two groups with their own servers: the versioned API
(\`{base_url}\`) and the backend (\`{backend_url}\`).

**Authentication.** \`Authorization: Bearer <API_KEY>\`; \`POST {backend_url}/auth/login\` issues keys.
Keys look like \`plat_\` and 38 base62 characters, the last six a checksum.

**Rate limits.** Every answer of a rate-limited operation, errors included, carries \`X-RateLimit-Limit\`,
\`X-RateLimit-Remaining\` (after this request) and \`X-RateLimit-Reset\` (UTC epoch seconds), and the same
allowance as the IETF fields of draft-ietf-httpapi-ratelimit-headers-11: \`RateLimit-Policy: "default";q=100;w=60\`
and \`RateLimit: "default";r=99;t=17\` (\`t\`: seconds until the window ends). A 429 adds \`Retry-After\`.

**Lists** take \`limit\` (1 to 100, default 20) and \`cursor\`, and answer \`{"<items>": [...], "nextCursor"}\`
newest first; pass \`nextCursor\` back as \`cursor\` until it is \`null\`.

**Errors** are \`application/json; charset=utf-8\` bodies \`{"error", "message", "field"?}\`, except the 429's
\`{"error", "retryAfter"}\`. Every answer of a function carries \`X-Request-Id\`. A path no operation
serves answers 404 \`not_found\`, a known path with another method 405 \`method_not_allowed\` with
\`Allow\` (on \`{base_url}\` after the key check): \`x-unmatched-requests\` lists those answers per server.
Requests that API Gateway refuses by itself (its stage throttle, a body over 10 MB) get the same JSON
but without \`X-Request-Id\` or the rate-limit headers.

${errorTable()}`;

/** Paths by group: the same path string never appears in both groups. */
function pathsOf(rows: readonly EndpointRoute[]): ZodOpenApiPathsObject {
  const paths: Record<string, ZodOpenApiPathItemObject> = {};
  for (const route of rows) {
    // Each path item names its group's server: the two groups have different base URLs.
    const item = paths[route.path] ?? { servers: [servers[route.api]] };
    if (item.servers?.[0]?.url !== servers[route.api].url) {
      throw new Error(`${route.path} is served by both groups: one OpenAPI path cannot say which`);
    }
    paths[route.path] = { ...item, [route.method.toLowerCase()]: operationOf(route) };
  }
  return paths;
}

const unmatchedId = (group: ApiGroup, status: number): string =>
  `Unmatched${group === 'platform' ? 'Platform' : 'Backend'}${status}`;

function build(): OpenApiDocument {
  const groups: ApiGroup[] = ['platform', 'backend'];
  const unmatched = new Map(groups.map((group) => [group, unmatchedResponsesOf(group)]));
  const responses: Record<string, ZodOpenApiResponseObject> = {};
  const unmatchedRefs: Record<string, Record<string, { $ref: string }>> = {};
  for (const [group, byStatus] of unmatched) {
    const refs: Record<string, { $ref: string }> = {};
    for (const [status, response] of byStatus) {
      responses[unmatchedId(group, status)] = response;
      refs[status] = { $ref: `#/components/responses/${unmatchedId(group, status)}` };
    }
    unmatchedRefs[servers[group].url] = refs;
  }

  const document = createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Platform API',
      version: DOCUMENT_VERSION,
      description: description(),
      license: { name: 'UNLICENSED', identifier: 'LicenseRef-UNLICENSED' },
    },
    servers: groups.map((group) => servers[group]),
    tags: Object.entries(tagDescriptions).map(([name, text]) => ({ name, description: text })),
    paths: pathsOf(operations()),
    webhooks: webhookEntries(),
    components: {
      securitySchemes: {
        [BEARER_SCHEME]: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'plat_ API key',
          description: 'An API key from `POST {backend_url}/auth/login`.',
        },
      },
      responses,
    },
    'x-unmatched-requests': unmatchedRefs,
  });
  return { ...document, info: { ...document.info }, paths: document.paths ?? {} };
}

/** The document's type: what GET /openapi.json is documented to answer. */
export type OpenApiDocument = z.output<typeof OpenApiDocumentBody>;

let built: OpenApiDocument | undefined;

/** The OpenAPI 3.1 document of the whole API, built once and kept. */
export function openApiDocument(): OpenApiDocument {
  built ??= build();
  return built;
}
