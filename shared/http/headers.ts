import type { ProxyEvent } from './types.ts';

/** A request header by name, case-insensitively (API Gateway keeps the client's casing). */
export function headerValue(event: ProxyEvent, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(event.headers ?? {})) {
    if (key.toLowerCase() === wanted && value !== undefined) return value;
  }
  return undefined;
}
