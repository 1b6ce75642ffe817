import { Agent } from 'node:http';
import { recordCommands } from '../support/dynamodb-commands.ts';
import type { BenchSetup } from './setup.ts';
import { measureWarm, send, type WarmRequest, type WarmResult } from './warm.ts';

// The two warm comparisons, after checking that the minimal server sends the store exactly the
// commands the gateway's handlers send: otherwise the ratio would compare different work.

export interface WarmPhase {
  results: WarmResult[];
  /** Requests for which the two servers' DynamoDB commands differ (none expected). */
  callMismatches: string[];
}

function warmRequests(data: BenchSetup): WarmRequest[] {
  const inTeam = data.actsIn === 'shared' ? `?teamId=${data.teamId}` : '';
  return [
    {
      label: `GET /v1/projects/{id}${inTeam && ' in a shared team'}`,
      method: 'GET',
      path: `/v1/projects/${data.projectId}${inTeam}`,
      key: data.adminKey,
      expected: 200,
    },
    {
      label: `POST /v1/deployments${inTeam && ' in a shared team'}`,
      method: 'POST',
      path: `/v1/deployments${inTeam}`,
      body: JSON.stringify({ projectId: data.projectId }),
      key: data.adminKey,
      expected: 201,
    },
  ];
}

export async function warmPhase(
  servers: Record<'gateway' | 'minimal', string>,
  data: BenchSetup,
  rounds: number,
  perRound: { sequential: number; concurrent: number },
): Promise<WarmPhase> {
  const commands = recordCommands();
  const agent = new Agent({ keepAlive: false });
  const callMismatches: string[] = [];
  const requests = warmRequests(data);
  for (const warm of requests) {
    const callsVia = async (base: string) => {
      // One request first: it may open the key's new rate window, which costs one write more.
      await send(base, agent, warm);
      commands.take();
      await send(base, agent, warm);
      return commands.take().join(', ');
    };
    const gateway = await callsVia(servers.gateway);
    const minimal = await callsVia(servers.minimal);
    if (gateway !== minimal) callMismatches.push(`${warm.label}: gateway ${gateway}; minimal ${minimal}`);
  }
  const results: WarmResult[] = [];
  for (const warm of requests) results.push(await measureWarm(servers, warm, rounds, perRound));
  return { results, callMismatches };
}
