import { onEachStoreClients } from '#shared/db/client.ts';

/**
 * Records the name of every DynamoDB command the service sends, on all of its clients, from now
 * on. `take()` returns what was recorded since the last `take()`.
 */
export function recordCommands(): { take(): string[] } {
  let commands: string[] = [];
  onEachStoreClients(({ db, countingDb }) => {
    for (const client of [db, countingDb]) {
      client.middlewareStack.add(
        (next, context) => async (args) => {
          commands.push(String(context.commandName));
          return next(args);
        },
        { step: 'initialize', name: 'recordCommands' },
      );
    }
  });
  return {
    take() {
      const taken = commands;
      commands = [];
      return taken;
    },
  };
}
