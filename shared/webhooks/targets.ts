import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { lookup as resolveAll } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';

// Where a webhook may be delivered. A URL names a host; what matters is the address a connection
// reaches. So the address is checked twice: when a subscription is made or changed (a clear 400),
// and on every delivery inside the socket's own `lookup`, on the address it then connects to, so a
// DNS answer that changes between the check and the connection (rebinding) cannot reach inside.

/** The metadata and credential endpoints of the cloud the functions run in: never, in any mode. */
const ALWAYS_REFUSED = new BlockList();
// Link-local IPv4 holds EC2's instance metadata (169.254.169.254) and ECS's credentials
// (169.254.170.2); AWS's IPv6 metadata address is fd00:ec2::254.
ALWAYS_REFUSED.addSubnet('169.254.0.0', 16, 'ipv4');
ALWAYS_REFUSED.addAddress('fd00:ec2::254', 'ipv6');

/** Addresses that are not the public internet: refused unless a local run allows private targets. */
const INTERNAL = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  INTERNAL.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
  ['100::', 64], // discard
] as const) {
  INTERNAL.addSubnet(network, prefix, 'ipv6');
}

export interface TargetPolicy {
  /** A local run's receivers: http, loopback and private addresses (never the metadata ones). */
  allowPrivateTargets: boolean;
}

/** An IPv4 address inside IPv6 (`::ffff:10.0.0.1`, NAT64 `64:ff9b::a00:1`) is judged as IPv4. */
function embeddedIpv4(address: string): string | undefined {
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (dotted?.[1]) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex?.[1] || !hex[2]) return undefined;
  const high = Number.parseInt(hex[1], 16);
  const low = Number.parseInt(hex[2], 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** Why an address may not be delivered to under the policy, or undefined when it may. */
export function refusalOf(address: string, policy: TargetPolicy): string | undefined {
  const bare = address.replace(/^\[|\]$/g, '');
  const v4 = embeddedIpv4(bare);
  if (v4 !== undefined) return refusalOf(v4, policy);
  const family = isIP(bare) === 6 ? 'ipv6' : 'ipv4';
  if (isIP(bare) === 0) return `${address} is not an IP address`;
  if (ALWAYS_REFUSED.check(bare, family)) return `${bare}, a link-local or metadata address`;
  if (!policy.allowPrivateTargets && INTERNAL.check(bare, family)) {
    return `${bare}, a loopback, private, link-local, unique-local or unspecified address`;
  }
  return undefined;
}

/** Why a URL may not be delivered to before any lookup (its scheme, a literal address), or undefined. */
export function urlRefusalOf(url: URL, policy: TargetPolicy): string | undefined {
  if (url.protocol !== 'https:' && !(policy.allowPrivateTargets && url.protocol === 'http:')) {
    return 'must be an https URL';
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(host) === 0 ? undefined : refusalOf(host, policy);
}

/**
 * Checks a URL as a subscription is made: the scheme, then every address its host resolves to now.
 * A host that does not resolve passes (DNS may be down for a moment); each delivery checks again.
 */
export async function targetRefusalOf(rawUrl: string, policy: TargetPolicy): Promise<string | undefined> {
  const url = new URL(rawUrl);
  const refusal = urlRefusalOf(url, policy);
  if (refusal !== undefined || isIP(url.hostname.replace(/^\[|\]$/g, '')) !== 0) return refusal;
  let addresses: LookupAddress[];
  try {
    addresses = await resolveAll(url.hostname, { all: true });
  } catch {
    return undefined;
  }
  for (const { address } of addresses) {
    const refused = refusalOf(address, policy);
    if (refused !== undefined) return `${url.hostname} resolves to ${refused}`;
  }
  return undefined;
}

/** The error a guarded lookup fails a connection with; the delivery log shows its message. */
export class RefusedTargetError extends Error {
  override name = 'RefusedTargetError';
  readonly code = 'EREFUSEDTARGET';
}

/**
 * A `lookup` for the socket that resolves the host and fails the connection when any address it
 * would use is refused: the check runs on the very answer the socket connects to.
 */
export function guardedLookup(policy: TargetPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) {
        callback(error, '', 0);
        return;
      }
      const answers = addresses as unknown as LookupAddress[];
      for (const { address } of answers) {
        const refused = refusalOf(address, policy);
        if (refused !== undefined) {
          callback(new RefusedTargetError(`${hostname} resolves to ${refused}`), '', 0);
          return;
        }
      }
      if (options.all) {
        callback(null, answers);
        return;
      }
      const first = answers[0];
      if (!first) {
        callback(new RefusedTargetError(`${hostname} has no address`), '', 0);
        return;
      }
      callback(null, first.address, first.family);
    });
  };
}
