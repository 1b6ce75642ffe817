import { assertDocumented } from './contract.ts';

export interface JsonResponse {
  status: number;
  headers: Headers;
  /** Parsed when the answer is JSON (all but the docs page and its files); otherwise the text. */
  body: unknown;
  /** The body as it came. */
  text: string;
}

export interface RequestOptions {
  method?: string;
  key?: string;
  headers?: Record<string, string>;
  /** Sent as JSON with Content-Type application/json unless `rawBody` is given. */
  json?: unknown;
  /** Sent as it is: text, or bytes that need not be UTF-8. */
  rawBody?: string | Uint8Array;
  /** Ends the request (the test fails) when it fires. */
  signal?: AbortSignal;
}

/**
 * One real HTTP request. Every answer is checked against the OpenAPI document (test/support/contract.ts):
 * an undocumented status, header, media type or field fails the test that received it.
 */
export async function call(url: string, options: RequestOptions = {}): Promise<JsonResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.Authorization = `Bearer ${options.key}`;
  let body: string | Uint8Array | undefined = options.rawBody;
  if (options.json !== undefined) {
    headers['Content-Type'] ??= 'application/json';
    body = JSON.stringify(options.json);
  }
  const method = options.method ?? 'GET';
  const response = await fetch(url, {
    method,
    headers,
    body,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const text = await response.text();
  assertDocumented({ method, url, status: response.status, headers: response.headers, text });
  const isJson = response.headers.get('content-type')?.startsWith('application/json') ?? false;
  return {
    status: response.status,
    headers: response.headers,
    body: isJson ? (text ? JSON.parse(text) : undefined) : text,
    text,
  };
}

/** The three rate-limit headers as numbers. */
export function rateLimitOf(response: JsonResponse) {
  return {
    limit: Number(response.headers.get('x-ratelimit-limit')),
    remaining: Number(response.headers.get('x-ratelimit-remaining')),
    reset: Number(response.headers.get('x-ratelimit-reset')),
  };
}
