import type { Schemas } from '@platform-api/client';
import type { Commands } from '../command.ts';
import { collect, defined, LIST_OPTIONS, list, required, string } from '../flags.ts';
import { fields, listOutput, objectOutput } from '../output.ts';

// `platform webhooks list|create|delete|test`: the user's webhook subscriptions.

const WEBHOOK_COLUMNS: (keyof Schemas['Webhook'])[] = ['id', 'url', 'events', 'enabled'];

export const webhookCommands: Commands = {
  'webhooks list': {
    usage: 'webhooks list [--limit <n>]',
    options: LIST_OPTIONS,
    run: async ({ flags, client }) =>
      listOutput(await collect((await client()).webhooks.list({ limit: 100 }), flags), WEBHOOK_COLUMNS),
  },
  'webhooks create': {
    usage: 'webhooks create --url <https://...> --events <a,b> [--description <text>]',
    options: { url: { type: 'string' }, events: { type: 'string' }, description: { type: 'string' } },
    async run({ flags, client }) {
      const body = defined({
        url: required(flags, 'url'),
        events: list(required(flags, 'events')) as Schemas['CreateWebhookBody']['events'],
        description: string(flags, 'description'),
      });
      const created = await (await client()).webhooks.create(body);
      return {
        json: created,
        text: `${fields(created.webhook)}\n\nThe signing secret (shown this once):\n${created.secret}`,
      };
    },
  },
  'webhooks delete': {
    usage: 'webhooks delete <id> [--yes]',
    args: ['id'],
    async run({ args: [id = ''], client, confirm }) {
      const api = await client();
      await confirm(`Delete webhook ${id}?`);
      await api.webhooks.delete(id);
      return { json: { id, deleted: true }, text: `Deleted webhook ${id}` };
    },
  },
  'webhooks test': {
    usage: 'webhooks test <id>',
    args: ['id'],
    run: async ({ args: [id = ''], client }) => objectOutput(await (await client()).webhooks.test(id)),
  },
};
