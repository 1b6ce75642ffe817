// The request target of an HTTP request line, as API Gateway would read it: only its path and query
// count. Node's `new URL(target, base)` would read `//host:port/...` as another host (and throw on a
// bad port), so the target is parsed against a fixed origin and never resolved against it.

const ORIGIN = 'http://localhost';

/** The path and query of a request target; undefined for one that is no path (`*`, garbage). */
export function parseRequestTarget(target: string): URL | undefined {
  try {
    // origin-form (`/v1/projects?limit=5`), the form every client sends to a server
    if (target.startsWith('/')) return new URL(`${ORIGIN}${target}`);
    // absolute-form (`http://host/v1/projects`), which proxies send: its host is not ours to honour
    const absolute = new URL(target);
    if (absolute.protocol !== 'http:' && absolute.protocol !== 'https:') return undefined;
    return new URL(`${ORIGIN}${absolute.pathname}${absolute.search}`);
  } catch {
    return undefined;
  }
}
