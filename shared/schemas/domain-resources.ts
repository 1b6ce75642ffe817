import * as z from 'zod/mini';
import { DOMAIN_STATES, RECORD_STATES, ROUTING_TYPES } from '#shared/model/custom-domains/domains.ts';
import { NextCursor, prefixedId, Timestamp } from './resources.ts';

// A project's custom domains as the API shows them. Like resources.ts, only the document imports
// this module at run time.

const exampleName = 'www.example.com';

export const DomainRecord = z
  .strictObject({
    purpose: z.enum(['ownership', 'routing']).register(z.globalRegistry, {
      description:
        '`ownership`: the TXT record that proves the name is meant for this project (required). `routing`: the record that sends its traffic here (reported, never required).',
    }),
    type: z.enum(['TXT', ...ROUTING_TYPES]).register(z.globalRegistry, {
      description:
        "`TXT` (ownership). `CNAME` (routing): the name points at the required value. `ALIAS` (routing, at an apex such as `example.com`, where DNS allows no CNAME): an ALIAS or ANAME record, or your provider's CNAME flattening, to the required value; checked by the name's addresses, which must include one of the required value's (`observedValues` lists the name's addresses).",
    }),
    name: z.string().register(z.globalRegistry, { description: 'Where the record is looked up.' }),
    requiredValue: z.string().register(z.globalRegistry, { description: 'What it must hold.' }),
    observedValues: z.array(z.string()).register(z.globalRegistry, {
      description:
        "What DNS answered at the last check (a TXT record's strings joined), empty when it answered none or did not answer.",
    }),
    status: z.enum(RECORD_STATES).register(z.globalRegistry, {
      description:
        '`ok`: one of the values is the required one; `mismatch`: DNS holds others; `missing`: none (or no answer: see `error`).',
    }),
    error: z.nullable(z.string()).register(z.globalRegistry, {
      description:
        'Why the last check got no answer for this record (a DNS server that timed out, refused or failed); null when DNS answered, even with nothing.',
    }),
  })
  .register(z.globalRegistry, {
    id: 'DomainRecord',
    description: 'A DNS record a domain needs, and what DNS holds.',
  });

export const Domain = z
  .strictObject({
    name: z.string().register(z.globalRegistry, {
      description: 'The hostname, lower case, Unicode labels as their A-labels (`xn--…`).',
      examples: [exampleName],
    }),
    projectId: prefixedId('prj', 'prj_01JD8Z3Q4R5S6T7V8W9X0Y1Z2A'),
    status: z.enum(DOMAIN_STATES).register(z.globalRegistry, {
      description:
        '`pending` until the ownership record holds its value (`verified`); still pending 7 days after it was added, `expired` (remove it and add it again).',
    }),
    records: z.array(DomainRecord),
    createdAt: Timestamp,
    verifiedAt: z.nullable(Timestamp),
    lastCheckedAt: z.nullable(Timestamp).register(z.globalRegistry, {
      description: 'The last look at DNS (a `verify` or a background check); null before the first.',
    }),
    nextCheckAt: z.nullable(Timestamp).register(z.globalRegistry, {
      description:
        'When a pending domain is checked again by itself (1 minute after it was added, then twice as long each time, at most an hour apart); null once verified or expired.',
    }),
    expiresAt: Timestamp,
  })
  .register(z.globalRegistry, {
    id: 'Domain',
    description:
      'A custom domain of a project, with each record it needs and what DNS holds for it. `expiresAt`: when a domain still pending becomes `expired` (7 days after it was added).',
  });

export const DomainList = z
  .strictObject({ domains: z.array(Domain), nextCursor: NextCursor })
  .register(z.globalRegistry, {
    id: 'DomainList',
    description: "A page of a project's domains, newest first.",
  });
