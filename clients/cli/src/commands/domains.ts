import type { Schemas } from '@platform-api/client';
import type { Commands } from '../command.ts';
import { collect, LIST_OPTIONS } from '../flags.ts';
import { cell, fields, listOutput, type Output, table } from '../output.ts';
import { projectId } from '../project-ref.ts';

// `platform domains add|list|get|verify|rm`: a project's custom domains. One domain is shown with
// its records as a table: what each must hold, what DNS held at the last check, and why a check got
// no answer when it got none.

type Domain = Schemas['Domain'];

const DOMAIN_COLUMNS: (keyof Domain)[] = ['name', 'status', 'lastCheckedAt', 'nextCheckAt'];

function domainOutput(domain: Domain): Output {
  const { records, ...rest } = domain;
  const rows = records.map((record) => [
    record.type,
    record.name,
    record.requiredValue,
    record.observedValues.length > 0 ? cell(record.observedValues) : '-',
    record.status,
  ]);
  const reasons = records.flatMap((record) =>
    record.error === null ? [] : [`${record.name}: ${record.error}`],
  );
  return {
    json: domain,
    text: [
      fields(rest),
      '',
      table(['type', 'name', 'required', 'observed', 'status'], rows),
      ...(reasons.length > 0 ? ['', ...reasons] : []),
    ].join('\n'),
  };
}

/**
 * `domains verify`: the domain, and unless it is verified what to do, in a sentence: the records
 * still to create or correct at the DNS provider. It exits 1 until the domain is verified, so that a
 * script can wait on it (`--json` prints the same document either way).
 */
function verifyOutput(domain: Domain): Output {
  const output = domainOutput(domain);
  if (domain.status === 'verified') return output;
  const todo = domain.records
    .filter((record) => record.status !== 'ok')
    .map((record) =>
      record.type === 'ALIAS'
        ? `  ALIAS (or ANAME, or CNAME flattening) ${record.name} -> ${record.requiredValue}`
        : `  ${record.type} ${record.name} -> ${record.requiredValue}`,
    );
  const advice =
    domain.status === 'expired'
      ? `${domain.name} was not verified in time and no longer holds the name: remove it and add it again.`
      : [
          `${domain.name} is not verified yet. Create these records at your DNS provider, then run this again:`,
          ...todo,
        ].join('\n');
  return { ...output, text: `${output.text}\n\n${advice}`, exitCode: 1 };
}

export const domainCommands: Commands = {
  'domains add': {
    usage: 'domains add <project id or name> <domain>',
    summary: 'Add a custom domain to a project and show the DNS records it needs.',
    args: ['project', 'name'],
    async run({ args: [project = '', name = ''], client }) {
      const api = await client();
      return domainOutput(await api.domains.create(await projectId(api, project), { name }));
    },
  },
  'domains list': {
    usage: 'domains list <project id or name> [--limit <n>]',
    summary: "List a project's custom domains, newest first.",
    args: ['project'],
    options: LIST_OPTIONS,
    async run({ args: [project = ''], flags, client }) {
      const api = await client();
      const items = api.domains.list(await projectId(api, project), { limit: 100 });
      return listOutput(await collect(items, flags), DOMAIN_COLUMNS);
    },
  },
  'domains get': {
    usage: 'domains get <project id or name> <domain>',
    summary: 'Show a domain: each record it needs and what DNS held at the last check.',
    args: ['project', 'name'],
    async run({ args: [project = '', name = ''], client }) {
      const api = await client();
      return domainOutput(await api.domains.get(await projectId(api, project), name));
    },
  },
  'domains verify': {
    usage: 'domains verify <project id or name> <domain>',
    summary: "Check a domain's DNS records now; until it is verified, say what to fix and exit 1.",
    args: ['project', 'name'],
    async run({ args: [project = '', name = ''], client }) {
      const api = await client();
      return verifyOutput(await api.domains.verify(await projectId(api, project), name));
    },
  },
  'domains rm': {
    usage: 'domains rm <project id or name> <domain> [--yes]',
    summary: 'Remove a custom domain from a project.',
    args: ['project', 'name'],
    async run({ args: [project = '', name = ''], client, confirm }) {
      const api = await client();
      const projectOf = await projectId(api, project);
      await confirm(`Remove domain ${name}?`);
      await api.domains.delete(projectOf, name);
      return { json: { name, deleted: true }, text: `Removed domain ${name}` };
    },
  },
};
