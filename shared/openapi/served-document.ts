import type { OpenApiDocument } from './document.ts';

// The published document says where the API is with server variables (`{base_url}`, `{backend_url}`)
// whose defaults are `npm start`'s addresses on its default port. Served, their defaults become the
// addresses the document was fetched from, so that the docs page's "Try it out" calls this API:
// `npm start` on whatever port it runs, or the stack's own URLs in AWS.

/** Where each group is served, as the server variables name them. */
export interface ServedAddresses {
  base_url: string;
  backend_url: string;
}

type Server = { url?: unknown; variables?: Record<string, { default?: unknown }> };

const withDefaults = (servers: unknown, addresses: ServedAddresses): unknown =>
  Array.isArray(servers)
    ? servers.map((server: Server) => ({
        ...server,
        ...(server.variables && {
          variables: Object.fromEntries(
            Object.entries(server.variables).map(([name, variable]) => [
              name,
              name in addresses
                ? { ...variable, default: addresses[name as keyof ServedAddresses] }
                : variable,
            ]),
          ),
        }),
      }))
    : servers;

/** The document with every server variable's default (the top level's and each path's) set to `addresses`. */
export function documentServedAt(document: OpenApiDocument, addresses: ServedAddresses): OpenApiDocument {
  const paths = Object.fromEntries(
    Object.entries(document.paths).map(([path, item]) => [
      path,
      typeof item === 'object' && item !== null && 'servers' in item
        ? { ...item, servers: withDefaults(item.servers, addresses) }
        : item,
    ]),
  );
  return {
    ...document,
    ...('servers' in document ? { servers: withDefaults(document.servers, addresses) } : {}),
    paths,
  };
}
