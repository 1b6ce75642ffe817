import { headerValue } from './headers.ts';
import type { ProxyEvent } from './types.ts';

/**
 * The scheme and host a request was sent to: API Gateway's domain name (the execute-api host or a
 * custom domain; requests for other hosts never reach the API) and the scheme it received
 * (`X-Forwarded-Proto`, https in AWS). The local gateway passes the Host header, port included, and
 * no scheme: plain http.
 */
export function originOf(event: ProxyEvent): string {
  const scheme = headerValue(event, 'x-forwarded-proto') === 'https' ? 'https' : 'http';
  const host = event.requestContext.domainName ?? headerValue(event, 'host') ?? '';
  // A host name, an IPv4 or bracketed IPv6 address, and a port: anything else a client made up.
  return `${scheme}://${HOST.test(host) ? host : 'localhost'}`;
}

const HOST = /^[A-Za-z0-9.-]+(:[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?$/;
