export interface JsonResponse {
  status: number;
  headers: Headers;
  body: unknown;
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

/** One real HTTP request; the body is parsed as JSON (every answer of this API is JSON). */
export async function call(url: string, options: RequestOptions = {}): Promise<JsonResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.Authorization = `Bearer ${options.key}`;
  let body: string | Uint8Array | undefined = options.rawBody;
  if (options.json !== undefined) {
    headers['Content-Type'] ??= 'application/json';
    body = JSON.stringify(options.json);
  }
  const response = await fetch(url, {
    method: options.method ?? 'GET',
    headers,
    body,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

/** The three rate-limit headers as numbers. */
export function rateLimitOf(response: JsonResponse) {
  return {
    limit: Number(response.headers.get('x-ratelimit-limit')),
    remaining: Number(response.headers.get('x-ratelimit-remaining')),
    reset: Number(response.headers.get('x-ratelimit-reset')),
  };
}
