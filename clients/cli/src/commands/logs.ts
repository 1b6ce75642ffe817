import { followBuild, logLine } from '../build-log.ts';
import type { Commands } from '../command.ts';
import { collect, integer, LIST_OPTIONS } from '../flags.ts';

// `platform logs <id>`: a deployment's build log, read, or followed until the deployment is terminal.

export const logCommands: Commands = {
  logs: {
    usage: 'logs <deployment id> [--follow] [--since <seq>] [--limit <n>]',
    summary: "Print a deployment's build log, or follow it until the deployment ends.",
    args: ['deployment'],
    options: {
      ...LIST_OPTIONS,
      follow: {
        type: 'boolean',
        short: 'f',
        help: 'follow the log until the deployment ends; exit 1 unless it ends ready',
      },
      since: {
        type: 'string',
        help: 'only lines after this sequence number (default 0: from the first line)',
      },
    },
    async run({ args: [id = ''], flags, client, progress }) {
      const api = await client();
      const since = integer(flags, 'since') ?? 0;
      if (!flags.follow) {
        const lines = await collect(api.logs.listForDeployment(id, { since, limit: 100 }), flags);
        return { json: { lines }, text: lines.map(logLine).join('\n') };
      }
      // The lines as they come (on stderr with --json), then the final status.
      let lines = 0;
      const status = await followBuild(api, id, {
        since,
        print(event) {
          if (event.type !== 'log') return;
          lines += 1;
          progress(logLine(event));
        },
      });
      // A failed build says why, as `deployments get` does: the message of the report that failed it.
      const errorMessage = status === 'error' ? (await api.deployments.get(id)).errorMessage : undefined;
      return {
        json: { id, status, lines, ...(errorMessage === undefined ? {} : { errorMessage }) },
        text: `Deployment ${id} is ${status}${errorMessage === undefined ? '' : `: ${errorMessage}`}`,
        exitCode: status === 'ready' ? 0 : 1,
      };
    },
  },
};
