import { findDeployment } from '#shared/db/deployments/deployments.ts';
import { appendLines, purgeLog, readLogHead } from '#shared/db/deployments/logs.ts';
import { purgeProjectDeployments, putDeployment } from '#shared/db/deployments/writes.ts';
import { purgeEnvironment, putSnapshot, readSnapshot } from '#shared/db/environment/snapshots.ts';
import { newId } from '#shared/model/ids.ts';
import { clock } from '#shared/runtime/clock.ts';

// A purge deletes a page at a time until nothing is left or its time is up, and says which: "done"
// lets the purge consumer let the project's removal go, "not done" hands the record back to be
// retried. A purge whose last page went after its time was up has nothing left to do, and says so.
// Each test uses its own owner, project and deployments on the run's DynamoDB Local.

/** A deployment of `projectId` with a log of `lines` lines (one append). */
async function deploymentWithLog(ownerId: string, projectId: string, lines: number): Promise<string> {
  const id = newId('dpl');
  const now = new Date().toISOString();
  await putDeployment(ownerId, {
    id,
    projectId,
    branch: 'main',
    status: 'building',
    target: 'production',
    createdAt: now,
    updatedAt: now,
  });
  const appended = await appendLines({
    ownerId,
    deploymentId: id,
    head: { count: 0, bytes: 0 },
    lines: Array.from({ length: lines }, (_, index) => ({
      at: now,
      stream: 'stdout',
      text: `line ${index}`,
    })),
    bytes: lines * 6,
    open: ['building'],
  });
  expect(appended.outcome).toBe('appended');
  return id;
}

/** The moment the purge is given: already past, so that every check of the time says it is up. */
const spent = () => clock.now() - 1;

describe('a purge whose time is up', () => {
  it("reports a deployment's log done when its one page was deleted", async () => {
    const id = await deploymentWithLog(newId('usr'), newId('prj'), 3);
    expect(await purgeLog(id, spent())).toBe(true);
    expect(await readLogHead(id)).toEqual({ count: 0, bytes: 0 });
  });

  it("reports a project's environment done when its one page was deleted", async () => {
    const projectId = newId('prj');
    const deploymentId = newId('dpl');
    await putSnapshot(projectId, deploymentId, { target: 'production', variables: [] });
    expect(await purgeEnvironment(projectId, spent())).toBe(true);
    expect(await readSnapshot(projectId, deploymentId)).toBeUndefined();
  });

  it("reports a project's deployments done when their one page was deleted, logs and all", async () => {
    const ownerId = newId('usr');
    const projectId = newId('prj');
    const ids = [
      await deploymentWithLog(ownerId, projectId, 2),
      await deploymentWithLog(ownerId, projectId, 1),
    ];
    expect(await purgeProjectDeployments(projectId, spent())).toBe(true);
    for (const id of ids) {
      expect(await findDeployment(ownerId, id, { consistent: true })).toBeUndefined();
      expect(await readLogHead(id)).toEqual({ count: 0, bytes: 0 });
    }
  });

  it('deletes one page and reports not done while more than a page is left, then done', async () => {
    const projectId = newId('prj');
    // A page is 25 items: 30 snapshots need two.
    const deployments = Array.from({ length: 30 }, () => newId('dpl'));
    await Promise.all(
      deployments.map((id) => putSnapshot(projectId, id, { target: 'preview', variables: [] })),
    );
    expect(await purgeEnvironment(projectId, spent())).toBe(false);
    const left = await Promise.all(deployments.map((id) => readSnapshot(projectId, id)));
    expect(left.filter((snapshot) => snapshot !== undefined)).toHaveLength(5);
    expect(await purgeEnvironment(projectId, spent())).toBe(true);
    const after = await Promise.all(deployments.map((id) => readSnapshot(projectId, id)));
    expect(after.every((snapshot) => snapshot === undefined)).toBe(true);
  });
});
