import { Resolver } from 'node:dns/promises';
import { requestDeadline } from '#shared/runtime/deadline.ts';
import type { DomainSettings } from './settings.ts';

// Looking a domain's records up, bounded: every lookup of one check shares one resolver, which is
// cancelled when the check's time is up (or the request's, whichever comes first). A server that
// never answers costs a check its timeout, and the answer says so instead of waiting on.

export interface Answer {
  /** What DNS holds (a TXT record's strings joined), empty when it holds nothing. */
  values: string[];
  /** Why there is no answer; null when DNS answered, even with nothing. */
  error: string | null;
}

export interface Lookups {
  txt(name: string): Promise<Answer>;
  cname(name: string): Promise<Answer>;
  /** Ends the check: whatever is still waiting is cancelled. */
  close(): void;
}

/** Codes that are an answer: the name or the record type does not exist. */
const NOTHING_THERE = new Set(['ENODATA', 'ENOTFOUND']);

function reasonOf(code: string | undefined, name: string, timeoutMs: number): string {
  switch (code) {
    case 'ETIMEOUT':
    case 'ECANCELLED':
      return `DNS did not answer for ${name} within ${timeoutMs / 1000} s`;
    case 'ECONNREFUSED':
      return `the DNS server refused the connection for ${name}`;
    case 'ESERVFAIL':
      return `the DNS server failed to answer for ${name} (SERVFAIL)`;
    case 'EREFUSED':
      return `the DNS server refused to answer for ${name} (REFUSED)`;
    default:
      return `the DNS lookup of ${name} failed (${code ?? 'unknown error'})`;
  }
}

/** Starts a check: its lookups, each bounded by `settings.checkTimeoutMs` from now. */
export function startLookups(settings: DomainSettings): Lookups {
  const resolver = new Resolver({ timeout: settings.checkTimeoutMs, tries: 1 });
  if (settings.dnsServers) resolver.setServers([...settings.dnsServers]);
  const cancel = () => resolver.cancel();
  const timer = setTimeout(cancel, settings.checkTimeoutMs);
  const deadline = requestDeadline();
  deadline?.addEventListener('abort', cancel, { once: true });
  const answer = async (name: string, lookUp: () => Promise<string[]>): Promise<Answer> => {
    try {
      return { values: await lookUp(), error: null };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== undefined && NOTHING_THERE.has(code)) return { values: [], error: null };
      return { values: [], error: reasonOf(code, name, settings.checkTimeoutMs) };
    }
  };
  return {
    txt: (name) =>
      answer(name, async () => (await resolver.resolveTxt(name)).map((chunks) => chunks.join(''))),
    cname: (name) =>
      answer(name, async () =>
        (await resolver.resolveCname(name)).map((target) => target.toLowerCase().replace(/\.$/, '')),
      ),
    close: () => {
      clearTimeout(timer);
      deadline?.removeEventListener('abort', cancel);
      resolver.cancel();
    },
  };
}
