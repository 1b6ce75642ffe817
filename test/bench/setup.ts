import { randomUUID } from 'node:crypto';
import { insertUser } from '#shared/db/users.ts';
import { issueApiKey } from '#shared/domain/api-keys.ts';
import { newId } from '#shared/model/ids.ts';
import type { Scope } from '#shared/model/scopes.ts';
import type { Route } from '#shared/routes.ts';
import {
  acceptsInvitation,
  addsDomain,
  BENCH_WEBHOOK_URL,
  type BenchData,
  type BenchTeam,
  benchTeam,
  changesDeployment,
  changesEnvironment,
  changesMember,
  createsWebhook,
  type Disposables,
  deletesOwnThing,
  deletesTeam,
  movesProduction,
  namesDomain,
  needsBuildKey,
  revokesInvitation,
  revokesTeamToken,
} from './requests.ts';

// What the measured requests need in the store: an admin's project and deployment (in the team the
// requests act in), a shared team of theirs, users to log in (one per round: login allows only a
// few attempts per email and window), and keys of that admin with an allowance no bench exhausts:
// one for the warm phase, and a fresh one for every cold invocation, since some of them revoke the
// key they are called with (logout, revoke-key); likewise a fresh deployment for those that change
// one, a fresh member for those that change one.
// Things are made through the local gateway, as clients make them, except keys, which are issued
// directly so that they can carry their own allowance, and the users that are invited into the
// team, stored as registration stores them (a password hash takes time the setup need not spend).

export interface BenchSetup extends BenchData {
  /** The admin's user id. */
  ownerId: string;
  /** What the acting team's projects are stored under (the admin's id, or the shared team's): the bare handler reads the project there. */
  partition: string;
  /** A new key of the admin's (or of another new admin's, given their id), and its id. */
  issueKey(userId?: string, scopes?: Scope[]): Promise<{ apiKey: string; id: string }>;
  /** A new queued deployment of the admin's project, for requests that change one (cancel, report). */
  newDeployment(): Promise<string>;
  /** A new project of the admin's, for the request that deletes one. */
  newProject(): Promise<string>;
  /** A new webhook of the admin's, for the request that deletes one. */
  newWebhook(): Promise<string>;
  /**
   * A new project whose production went from one ready deployment to a newer one (both automatic),
   * for the requests that move production: a promote of `earlier` and a rollback both move it back.
   */
  newProduction(): Promise<{ projectId: string; earlier: string }>;
  /** A new project with one variable, for the requests that change a project's variables. */
  newVariable(): Promise<{ projectId: string; envId: string }>;
  /** A new project with one custom domain, for the requests that read, check or remove one. */
  newDomain(): Promise<{ projectId: string; name: string }>;
  /** A new team of the admin's with an open invitation, a webhook and a token, for the request that deletes one. */
  newTeam(): Promise<string>;
  /** A new developer of the shared team, for the requests that change or remove one. */
  newMember(): Promise<string>;
  /** A new open invitation into the shared team, for the request that revokes one. */
  newInvitation(): Promise<string>;
  /** A new user invited into the shared team: their key and the code, for the request that accepts it. */
  newInvitee(): Promise<{ key: string; code: string }>;
  /** A new token of the shared team, for the request that revokes one. */
  newTeamToken(): Promise<string>;
}

/** A custom domain's name no one holds (the names are held across all projects). */
const freeDomainName = (): string => `bench-${randomUUID().slice(0, 12)}.example.com`;

/**
 * `rounds`: how many users to register for login (none where nothing logs in). `actsIn`: the team the
 * versioned routes act in, and so where the project and deployment are made.
 */
export async function makeBenchData(
  gatewayUrl: string,
  rounds: number,
  actsIn: BenchTeam = benchTeam(),
): Promise<BenchSetup> {
  // Apart from earlier runs' (DynamoDB Local may keep a file) and from another set made at once.
  const runId = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  let people = 0;
  /**
   * A user as registration stores one (a password nobody knows), so that an invitation can name their
   * email; an id of the service's shape, as the users' list shows every user.
   */
  const newUser = async () => {
    const userId = newId('usr');
    const email = `bench-person-${runId}-${++people}@example.test`;
    await insertUser(
      { id: userId, email, name: 'Bench', role: 'member', createdAt: new Date().toISOString() },
      'unusable',
    );
    return { userId, email };
  };
  const owner = await newUser();
  const ownerId = owner.userId;
  const issueKey = async (userId = ownerId, scopes?: Scope[]) => {
    const issued = await issueApiKey({
      userId,
      role: 'admin',
      name: 'bench',
      rateLimit: 100_000_000,
      ...(scopes === undefined ? {} : { scopes }),
    });
    return { apiKey: issued.apiKey, id: issued.key.id };
  };
  const adminKey = (await issueKey()).apiKey;
  const post = async (path: string, body: unknown, key?: string): Promise<Record<string, unknown>> => {
    const response = await fetch(`${gatewayUrl}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(key ? { Authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify(body),
    });
    if (response.status >= 300) {
      throw new Error(`Bench setup: POST ${path} answered ${response.status} ${await response.text()}`);
    }
    return (await response.json()) as Record<string, unknown>;
  };
  const teamId = String((await post('/v1/teams', { name: 'bench' }, adminKey)).id);
  // Invitations to the admin from another's team: what GET /invitations reads (two: a page of one
  // signs its next cursor).
  const inviterKey = (await issueKey((await newUser()).userId)).apiKey;
  const invitingTeam = String((await post('/v1/teams', { name: 'bench inviting' }, inviterKey)).id);
  for (const role of ['viewer', 'developer']) {
    await post(`/v1/teams/${invitingTeam}/invitations`, { email: owner.email, role }, inviterKey);
  }
  /** A versioned path in the team the requests act in. */
  const inTeam = (path: string) => (actsIn === 'shared' ? `${path}?teamId=${teamId}` : path);
  const invite = async (email: string, team = teamId) => {
    const invited = await post(`/v1/teams/${team}/invitations`, { email, role: 'developer' }, adminKey);
    return { id: String(invited.id), code: String(invited.code) };
  };
  let invited = 0;
  const newInvitation = async () => (await invite(`bench-invitee-${runId}-${++invited}@example.test`)).id;
  const newInvitee = async () => {
    const user = await newUser();
    const { code } = await invite(user.email);
    return { key: (await issueKey(user.userId)).apiKey, code };
  };
  const newMember = async () => {
    const user = await newUser();
    const { code } = await invite(user.email);
    await post('/v1/invitations/accept', { code }, (await issueKey(user.userId)).apiKey);
    return user.userId;
  };
  // What deleting a team removes besides the team: its invitations, webhooks and tokens.
  const newTeam = async () => {
    const id = String((await post('/v1/teams', { name: 'bench' }, adminKey)).id);
    await invite(`bench-invitee-${runId}-${++invited}@example.test`, id);
    await post(`/v1/webhooks?teamId=${id}`, { url: BENCH_WEBHOOK_URL, events: ['*'] }, adminKey);
    await post(`/v1/teams/${id}/tokens`, { name: 'bench', scopes: ['read'], expiresInDays: 1 }, adminKey);
    return id;
  };
  const newTeamToken = async () => {
    const made = await post(
      `/v1/teams/${teamId}/tokens`,
      { name: 'bench', scopes: ['read'], expiresInDays: 1 },
      adminKey,
    );
    return String((made.token as { id: string }).id);
  };
  // An invitation left open: the list of invitations has one besides those the requests make.
  await newInvitation();
  const project = await post(inTeam('/v1/projects'), { name: 'bench' }, adminKey);
  const deployment = await post(inTeam('/v1/deployments'), { projectId: project.id }, adminKey);
  const loginUsers = Array.from({ length: rounds }, (_, round) => ({
    email: `bench-login-${runId}-${round}@example.test`,
    password: 'bench passphrase',
  }));
  for (const user of loginUsers) await post('/auth/register', user);
  const newDeployment = async () =>
    String((await post(inTeam('/v1/deployments'), { projectId: project.id }, adminKey)).id);
  const newProject = async () => String((await post(inTeam('/v1/projects'), { name: 'bench' }, adminKey)).id);
  const readyDeploymentOf = async (projectId: string) => {
    const id = String((await post(inTeam('/v1/deployments'), { projectId }, adminKey)).id);
    for (const status of ['building', 'ready'])
      await post(inTeam(`/v1/deployments/${id}/events`), { status }, adminKey);
    return id;
  };
  const newVariable = async () => {
    const projectId = await newProject();
    const created = await post(
      inTeam(`/v1/projects/${projectId}/env`),
      { key: 'BENCH', value: 'bench value' },
      adminKey,
    );
    return { projectId, envId: String(created.id) };
  };
  const newProduction = async () => {
    const projectId = await newProject();
    const earlier = await readyDeploymentOf(projectId);
    await readyDeploymentOf(projectId);
    return { projectId, earlier };
  };
  const newDomain = async (projectId?: string) => {
    const owner = projectId ?? (await newProject());
    const created = await post(inTeam(`/v1/projects/${owner}/domains`), { name: freeDomainName() }, adminKey);
    return { projectId: owner, name: String(created.name) };
  };
  // Two domains on the admin's project: its list has a second page to sign a cursor for.
  await newDomain(String(project.id));
  await newDomain(String(project.id));
  const newWebhook = async () => {
    const created = await post(inTeam('/v1/webhooks'), { url: BENCH_WEBHOOK_URL, events: ['*'] }, adminKey);
    return String((created.webhook as { id: string }).id);
  };
  const webhookId = await newWebhook();
  return {
    ownerId,
    partition: actsIn === 'shared' ? teamId : ownerId,
    teamId,
    actsIn,
    newTeam,
    newMember,
    newInvitation,
    newInvitee,
    newTeamToken,
    issueKey,
    newDeployment,
    newProject,
    newWebhook,
    newProduction,
    newVariable,
    newDomain: () => newDomain(),
    webhookId,
    adminKey,
    projectId: String(project.id),
    deploymentId: String(deployment.id),
    loginUsers,
    runId,
  };
}

/** What one request of the route uses up, made before it is sent (and not timed). */
export async function disposablesFor(route: Route, data: BenchSetup, round: number): Promise<Disposables> {
  // A webhook is made in a new team: a new user's personal one, or a new shared team of the admin's.
  const hooksApart = createsWebhook(route);
  const owner =
    hooksApart && data.actsIn === 'personal'
      ? `usr_bench_hooks_${round}_${Date.now().toString(36)}`
      : undefined;
  const invitee = acceptsInvitation(route) ? await data.newInvitee() : undefined;
  const caller = invitee
    ? { apiKey: invitee.key }
    : await data.issueKey(owner, needsBuildKey(route) ? ['build'] : undefined);
  const spare = await data.issueKey();
  const teamId =
    deletesTeam(route) || (hooksApart && data.actsIn === 'shared') ? await data.newTeam() : undefined;
  const deploymentId = changesDeployment(route) ? await data.newDeployment() : undefined;
  const deleted = deletesOwnThing(route);
  const production = movesProduction(route) ? await data.newProduction() : undefined;
  const variable = changesEnvironment(route) ? await data.newVariable() : undefined;
  const deletedProject = deleted && route.path.startsWith('/projects') ? await data.newProject() : undefined;
  const domain = namesDomain(route) ? await data.newDomain() : undefined;
  const claimingProject = addsDomain(route) ? await data.newProject() : undefined;
  return {
    key: caller.apiKey,
    spareKeyId: spare.id,
    deploymentId,
    projectId:
      deletedProject ?? production?.projectId ?? variable?.projectId ?? domain?.projectId ?? claimingProject,
    webhookId: deleted && route.path.startsWith('/webhooks') ? await data.newWebhook() : undefined,
    earlierProductionId: production?.earlier,
    variableId: variable?.envId,
    domainName: domain?.name ?? (claimingProject ? freeDomainName() : undefined),
    teamId,
    memberId: changesMember(route) ? await data.newMember() : undefined,
    invitationId: revokesInvitation(route) ? await data.newInvitation() : undefined,
    invitationCode: invitee?.code,
    tokenId: revokesTeamToken(route) ? await data.newTeamToken() : undefined,
  };
}
