import type { Schemas } from '@platform-api/client';
import type { Commands } from '../command.ts';
import { CliError, collect, defined, type Flags, LIST_OPTIONS, list, required, string } from '../flags.ts';
import { fields, listOutput, objectOutput } from '../output.ts';

// `platform webhooks list|get|create|update|delete|test|deliveries`: the user's webhook subscriptions
// and what was sent to them.

const WEBHOOK_COLUMNS: (keyof Schemas['Webhook'])[] = ['id', 'url', 'events', 'enabled'];
const DELIVERY_COLUMNS: (keyof Schemas['WebhookDelivery'])[] = [
  'id',
  'event',
  'attempt',
  'outcome',
  'statusCode',
  'attemptedAt',
  'nextRetryAt',
];
type WebhookEvents = Schemas['UpdateWebhookBody']['events'];

/** --enable or --disable as `enabled`, neither as undefined; both is a usage error. */
function enabled(flags: Flags): boolean | undefined {
  if (flags.enable && flags.disable)
    throw new CliError('usage_error', 'Give --enable or --disable, not both');
  return flags.enable ? true : flags.disable ? false : undefined;
}

export const webhookCommands: Commands = {
  'webhooks list': {
    usage: 'webhooks list [--limit <n>]',
    summary: 'List your webhook subscriptions, newest first (never their secrets).',
    options: LIST_OPTIONS,
    run: async ({ flags, client }) =>
      listOutput(await collect((await client()).webhooks.list({ limit: 100 }), flags), WEBHOOK_COLUMNS),
  },
  'webhooks get': {
    usage: 'webhooks get <id>',
    summary: 'Show one of your webhook subscriptions.',
    args: ['id'],
    run: async ({ args: [id = ''], client }) => objectOutput(await (await client()).webhooks.get(id)),
  },
  'webhooks create': {
    usage: 'webhooks create --url <https://...> --events <a,b> [--description <text>]',
    summary: 'Subscribe a URL to events and print its signing secret, shown this once.',
    options: {
      url: { type: 'string', help: 'where events are POSTed: an https URL, not a private or loopback host' },
      events: {
        type: 'string',
        help: 'the event types to send, comma-separated (like deployment.ready), or * for all',
      },
      description: { type: 'string', help: 'a note to tell it apart, 1 to 100 characters' },
    },
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
  'webhooks update': {
    usage:
      'webhooks update <id> [--url <https://...>] [--events <a,b>] [--description <text>] [--enable | --disable]',
    summary: 'Change, pause or re-enable a webhook subscription.',
    args: ['id'],
    options: {
      url: { type: 'string', help: 'where events are POSTed from now on: an https URL' },
      events: { type: 'string', help: 'the event types to send from now on, comma-separated, or * for all' },
      description: { type: 'string', help: "a new note, 1 to 100 characters; '' removes it" },
      enable: { type: 'boolean', help: 'resume deliveries, also of a subscription the service disabled' },
      disable: { type: 'boolean', help: 'pause deliveries; pending retries are dropped' },
    },
    async run({ args: [id = ''], flags, client }) {
      const description = string(flags, 'description');
      const body = defined({
        url: string(flags, 'url'),
        events: list(string(flags, 'events')) as WebhookEvents,
        // An empty --description removes it (the API's `null`).
        description: description === '' ? null : description,
        enabled: enabled(flags),
      });
      if (Object.keys(body).length === 0) {
        throw new CliError(
          'usage_error',
          'Nothing to change: give --url, --events, --description, --enable or --disable',
        );
      }
      return objectOutput(await (await client()).webhooks.update(id, body));
    },
  },
  'webhooks delete': {
    usage: 'webhooks delete <id> [--yes]',
    summary: 'Delete a webhook subscription; its pending deliveries are dropped.',
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
    summary: 'Send a ping event to a webhook.',
    args: ['id'],
    run: async ({ args: [id = ''], client }) => objectOutput(await (await client()).webhooks.test(id)),
  },
  'webhooks deliveries': {
    usage: 'webhooks deliveries <id> [--limit <n>]',
    summary: "List a webhook's delivery attempts, newest first, with their outcomes.",
    args: ['id'],
    options: LIST_OPTIONS,
    async run({ args: [id = ''], flags, client }) {
      const deliveries = (await client()).webhooks.listDeliveries(id, { limit: 100 });
      return listOutput(await collect(deliveries, flags), DELIVERY_COLUMNS);
    },
  },
};
