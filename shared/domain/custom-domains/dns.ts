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
  /** The IPv4 and IPv6 addresses a name resolves to, CNAMEs followed. */
  addresses(name: string): Promise<Answer>;
  /** Ends the check: whatever is still waiting is cancelled. */
  close(): void;
}

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

const codeOf = (error: unknown): string | undefined => (error as NodeJS.ErrnoException).code;

/** Starts a check: its lookups, each bounded by `settings.checkTimeoutMs` from now. */
export function startLookups(settings: DomainSettings): Lookups {
  const resolver = new Resolver({ timeout: settings.checkTimeoutMs, tries: 1 });
  if (settings.dnsServers) resolver.setServers([...settings.dnsServers]);
  const cancel = () => resolver.cancel();
  const timer = setTimeout(cancel, settings.checkTimeoutMs);
  const deadline = requestDeadline();
  deadline?.addEventListener('abort', cancel, { once: true });

  // "No such name" is an answer only from a server that sees public DNS: one that cannot (no route
  // out, a resolver that answers NXDOMAIN to everything) says the same of a record not yet created.
  // So the first such answer of a check asks for the name's top-level domain, which always exists.
  // A question about the top-level domain that goes unanswered (the check's time ran out) says
  // nothing about public DNS: that is reported as the timeout it is.
  const sightOf = new Map<string, Promise<string | undefined | null>>();
  const publicDnsProblem = async (name: string): Promise<string | null> => {
    const tld = name.slice(name.lastIndexOf('.') + 1);
    let sight = sightOf.get(tld);
    if (!sight) {
      sight = resolver.resolveNs(tld).then(
        () => null,
        (error: unknown) => codeOf(error),
      );
      sightOf.set(tld, sight);
    }
    const code = await sight;
    if (code === null) return null;
    if (code === 'ETIMEOUT' || code === 'ECANCELLED') {
      return `${reasonOf(code, tld, settings.checkTimeoutMs)}, so whether ${name} exists is not known: it was not checked`;
    }
    return `the DNS server could not find the top-level domain ${tld} (${code ?? 'unknown error'}), so it cannot see public DNS: ${name} was not checked`;
  };

  const answer = async (name: string, lookUp: () => Promise<string[]>): Promise<Answer> => {
    try {
      return { values: await lookUp(), error: null };
    } catch (error) {
      const code = codeOf(error);
      if (code === 'ENOTFOUND') return { values: [], error: await publicDnsProblem(name) };
      if (code === 'ENODATA') return { values: [], error: null }; // the name holds no such record
      return { values: [], error: reasonOf(code, name, settings.checkTimeoutMs) };
    }
  };
  /** Both families at once; a name with neither is ENODATA (or ENOTFOUND) from the first. */
  const bothFamilies = async (name: string): Promise<string[]> => {
    const families = await Promise.allSettled([resolver.resolve4(name), resolver.resolve6(name)]);
    const found = families.flatMap((family) => (family.status === 'fulfilled' ? family.value : []));
    const failed = families.find((family) => family.status === 'rejected');
    if (found.length === 0 && failed) throw failed.reason;
    return found.sort();
  };
  return {
    txt: (name) =>
      answer(name, async () => (await resolver.resolveTxt(name)).map((chunks) => chunks.join(''))),
    cname: (name) =>
      answer(name, async () =>
        (await resolver.resolveCname(name)).map((target) => target.toLowerCase().replace(/\.$/, '')),
      ),
    addresses: (name) => answer(name, () => bothFamilies(name)),
    close: () => {
      clearTimeout(timer);
      deadline?.removeEventListener('abort', cancel);
      resolver.cancel();
    },
  };
}
