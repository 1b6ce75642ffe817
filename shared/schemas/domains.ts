import * as z from 'zod/mini';
import { ID_MAX_LENGTH } from '#shared/model/ids.ts';
import { atMost } from './common.ts';

// Custom domains: what a client sends. Whether a name is acceptable (a hostname, not an IP address,
// not a public suffix) is the domain's check (shared/domain/custom-domains/claims.ts): it normalises the
// name first, and the Public Suffix List is not a schema's to carry.

/** Longer than any name (253 characters as A-labels, a trailing dot): a cheap bound before the rules. */
const MAX_GIVEN_NAME_LENGTH = 1000;

export const CreateDomainBody = z
  .strictObject({
    name: z
      .string()
      .check(atMost(MAX_GIVEN_NAME_LENGTH))
      .register(z.globalRegistry, {
        description:
          'A hostname of at least two labels; Unicode is stored as its A-label and upper case as lower. Not an IP address, not a wildcard, not a public suffix (the Public Suffix List: `co.uk`, `github.io`).',
        examples: ['www.example.com'],
      }),
  })
  .register(z.globalRegistry, {
    id: 'CreateDomainBody',
    description: 'At most 50 names a project; a name is held by one project at a time.',
    examples: [{ name: 'www.example.com' }],
  });

export type CreateDomainInput = z.output<typeof CreateDomainBody>;

/** `{id}` and `{name}` in a domain's path. */
export const DomainParams = z.object({
  id: z.string().check(atMost(ID_MAX_LENGTH)),
  name: z
    .string()
    .check(atMost(MAX_GIVEN_NAME_LENGTH))
    .register(z.globalRegistry, {
      description: "The domain's name as the API returned it (or in Unicode); any other answers 404.",
      examples: ['www.example.com'],
    }),
});
