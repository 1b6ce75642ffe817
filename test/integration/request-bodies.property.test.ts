import { test } from '@fast-check/jest';
import {
  branch,
  deploymentTarget,
  displayName,
  email,
  password,
  projectId,
  repository,
  uniquely,
  uniquePrefix,
} from '../support/field-arbitraries.ts';
import { startGateway, type TestGateway } from '../support/gateway.ts';
import { call } from '../support/http.ts';
import { type BodyShape, bodyWithOneBadField, validBody } from '../support/request-body-arbitraries.ts';
import { newCaller, type TestCaller } from '../support/users.ts';

// Property-based: bodies generated from the rules of shared/schemas/*.ts. Every valid one is
// accepted; every body with exactly one bad field is answered 400 validation_error naming that
// field. The seed is fixed so a run is repeatable (fast-check prints seed and counterexample on a
// failure); FUZZ_RUNS=2000 (and FUZZ_SEED=<n> for other samples) runs a longer search.

const RUNS = Number(process.env.FUZZ_RUNS ?? 50);
const SEED = Number(process.env.FUZZ_SEED ?? 20_260_808);
const params = { numRuns: RUNS, seed: SEED };
// Registration hashes each password (about 50 ms); leave room for a long run and its shrinking.
const TIMEOUT_MS = Math.max(30_000, RUNS * 400);

// A caller whose allowance outlasts every run and its shrinking: the limits are not under test.
const generousCaller = () => newCaller({ rateLimit: 1_000_000 });

const USER_ID = /^usr_[0-9A-HJKMNP-TV-Z]{26}$/;
const PROJECT_ID = /^prj_[0-9A-HJKMNP-TV-Z]{26}$/;
const DEPLOYMENT_ID = /^dpl_[0-9A-HJKMNP-TV-Z]{26}$/;

const projectBody: BodyShape = {
  name: { values: displayName, required: true },
  repository: { values: repository, required: false },
  productionBranch: { values: branch, required: false },
};
const deploymentBranch: BodyShape = {
  branch: { values: branch, required: false },
  target: { values: deploymentTarget, required: false },
};
const deploymentBody: BodyShape = { projectId: { values: projectId, required: true }, ...deploymentBranch };
const registrationBody: BodyShape = {
  email: { values: email, required: true },
  password: { values: password, required: true },
  name: { values: displayName, required: false },
};

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway.close());

const expectValidationError = (response: { status: number; body: unknown }, field: string) => {
  expect({ status: response.status, body: response.body }).toEqual({
    status: 400,
    body: { error: 'validation_error', message: expect.stringMatching(/ /), field },
  });
  // The message leads with the field, as a person reading it would expect.
  expect((response.body as { message: string }).message.startsWith(`${field} `)).toBe(true);
};

describe('POST /v1/projects', () => {
  let caller: TestCaller;
  beforeEach(async () => {
    caller = await generousCaller();
  });
  const create = (json: unknown) =>
    call(`${gateway.baseUrl}/projects`, { method: 'POST', key: caller.key, json });

  test.prop([validBody(projectBody)], params)(
    'creates a project from every valid body and serves back what it stored',
    async ({ sent, stored }) => {
      const response = await create(sent);
      const project = response.body as { id: string; createdAt: string };
      expect({ status: response.status, body: project }).toEqual({
        status: 201,
        body: {
          id: expect.stringMatching(PROJECT_ID),
          name: stored.name,
          repository: stored.repository ?? null,
          productionBranch: stored.productionBranch ?? 'main',
          production: null,
          autoPromotion: true,
          createdAt: expect.any(String),
          updatedAt: project.createdAt,
        },
      });
      const read = await call(`${gateway.baseUrl}/projects/${project.id}`, { key: caller.key });
      expect({ status: read.status, body: read.body }).toEqual({ status: 200, body: project });
    },
    TIMEOUT_MS,
  );

  test.prop([bodyWithOneBadField(projectBody)], params)(
    'answers a body with one bad field with 400 naming that field',
    async ({ body, field }) => {
      expectValidationError(await create(body), field);
    },
    TIMEOUT_MS,
  );
});

describe('POST /v1/deployments', () => {
  let caller: TestCaller;
  let project: { id: string; productionBranch: string };
  beforeEach(async () => {
    caller = await generousCaller();
    const created = await call(`${gateway.baseUrl}/projects`, {
      method: 'POST',
      key: caller.key,
      json: { name: 'web', productionBranch: 'trunk' },
    });
    expect(created.status).toBe(201);
    project = created.body as typeof project;
  });
  const deploy = (json: unknown) =>
    call(`${gateway.baseUrl}/deployments`, { method: 'POST', key: caller.key, json });

  test.prop([validBody(deploymentBranch)], params)(
    "queues a deployment of the caller's project for every valid branch",
    async ({ sent, stored }) => {
      const response = await deploy({ projectId: project.id, ...sent });
      const deployment = response.body as { createdAt: string };
      expect({ status: response.status, body: deployment }).toEqual({
        status: 201,
        body: {
          id: expect.stringMatching(DEPLOYMENT_ID),
          projectId: project.id,
          branch: stored.branch ?? project.productionBranch,
          status: 'queued',
          target:
            stored.target ??
            ((stored.branch ?? project.productionBranch) === project.productionBranch
              ? 'production'
              : 'preview'),
          createdAt: expect.any(String),
          updatedAt: deployment.createdAt,
        },
      });
    },
    TIMEOUT_MS,
  );

  test.prop([validBody(deploymentBody)], params)(
    'passes validation for any well-formed projectId: an unknown one is 404, never 400',
    async ({ sent }) => {
      const response = await deploy(sent);
      expect({ status: response.status, body: response.body }).toEqual({
        status: 404,
        body: { error: 'not_found', message: expect.any(String) },
      });
    },
    TIMEOUT_MS,
  );

  test.prop([bodyWithOneBadField(deploymentBody)], params)(
    'answers a body with one bad field with 400 naming that field',
    async ({ body, field }) => {
      expectValidationError(await deploy(body), field);
    },
    TIMEOUT_MS,
  );
});

describe('POST /auth/register', () => {
  const register = (json: unknown) => call(`${gateway.backendUrl}/auth/register`, { method: 'POST', json });

  test.prop([validBody(registrationBody)], params)(
    'registers a member from every valid body, with the email trimmed and lower-cased',
    async ({ sent, stored }) => {
      // Generators repeat values, and an address registers once: a fresh prefix keeps each unique.
      const prefix = uniquePrefix();
      const response = await register({ ...sent, email: uniquely(sent.email ?? '', prefix) });
      expect({ status: response.status, body: response.body }).toEqual({
        status: 201,
        body: {
          id: expect.stringMatching(USER_ID),
          email: uniquely(stored.email ?? '', prefix),
          name: stored.name ?? null,
          role: 'member',
          createdAt: expect.any(String),
        },
      });
    },
    TIMEOUT_MS,
  );

  test.prop([bodyWithOneBadField(registrationBody)], params)(
    'answers a body with one bad field with 400 naming that field',
    async ({ body, field }) => {
      expectValidationError(await register(body), field);
    },
    TIMEOUT_MS,
  );
});
