import { getDomain, getPublicSuffix } from 'tldts';

// The Public Suffix List, as the maintained `tldts` package ships it (ICANN and private sections):
// a name that is itself a suffix (`co.uk`, `github.io`) belongs to no one who could prove it. About
// 135 KB minified, so only the function that adds a domain imports this module.

/** Whether `name` (normalised: shared/model/custom-domains/names.ts) is a public suffix. */
export const isPublicSuffix = (name: string): boolean =>
  getPublicSuffix(name, { allowPrivateDomains: true }) === name;

/** Whether `name` is an apex: a registrable domain (`example.com`, `shop.co.uk`), not a name under one. */
export const isApex = (name: string): boolean => getDomain(name, { allowPrivateDomains: true }) === name;
