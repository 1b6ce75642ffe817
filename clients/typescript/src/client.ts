import { errorOf } from './errors.ts';
import { type FollowEvent, type FollowOptions, follow } from './follow.ts';
import { type Groups, type OperationRow, operationTable } from './generated/operations.ts';
import { clientVersion } from './generated/version.ts';
import { backoff, retryAfterMs, sleep } from './retry.ts';
import type { TeamRequestOptions } from './types.ts';

export interface ClientOptions {
  /** `{base_url}`, the versioned API, ending in `/v1` (locally `http://localhost:3000/v1`). */
  baseUrl: string;
  /** `{backend_url}`: health, auth, users, the document; `baseUrl` without its `/v1` unless given. */
  backendUrl?: string;
  /** Sent as `Authorization: Bearer <apiKey>`; `auth.login` sets it, `auth.logout` clears it. */
  apiKey?: string;
  /**
   * The team every call that acts in one acts in (sent as `?teamId=`); a call's own `{ teamId }`
   * option wins. Unset: a personal key acts in its user's personal team, a team token in its team.
   */
  teamId?: string;
  /** Any `fetch` (a test's, a proxy's); the global one unless given. */
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
  /** Retries after the first attempt (network errors, 429, 5xx; never PATCH or a POST without its key). */
  maxRetries?: number;
  /**
   * Called before each retry with what it waits for and why (a status, or the network error): for
   * logs and metrics. The wait is the answer's Retry-After where it has one, else the backoff.
   */
  onRetry?: (retry: RetryInfo) => void;
  /**
   * Your program's product token (`my-app/1.2`), sent before the client's own in every request's
   * User-Agent (`my-app/1.2 platform-sdk/0.1.0`), so the audit log says which program acted.
   */
  userAgent?: string;
}

/** What `onRetry` is told: the attempt that failed (0 for the first), the wait before the next. */
export interface RetryInfo {
  attempt: number;
  delayMs: number;
  /** The failed attempt's HTTP status; absent where it failed without an answer. */
  status?: number;
  /** Why it failed without an answer (fetch's error). */
  error?: unknown;
}

type Row = OperationRow;
type Query = Record<string, string | number | boolean | readonly string[] | null | undefined>;
type Page = Record<string, unknown> & { nextCursor?: string | null };

const RETRIED = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);

/** A new Idempotency-Key: a UUID where the platform has one (Node, Deno, Bun, secure pages). */
function newIdempotencyKey(): string {
  const crypto = globalThis.crypto;
  if (crypto?.randomUUID) return crypto.randomUUID();
  const bytes =
    crypto?.getRandomValues?.(new Uint8Array(16)) ?? Array.from({ length: 16 }, () => Math.random() * 256);
  return Array.from(bytes, (byte) => (byte & 255).toString(16).padStart(2, '0')).join('');
}

/**
 * Each path value a method was given is a string with something in it: an id left undefined or empty
 * would otherwise make another path (`GET /projects/` is the list) and answer something else.
 */
function requirePathValues(method: string, names: readonly string[], values: readonly unknown[]): void {
  names.forEach((name, i) => {
    const value = values[i];
    if (typeof value !== 'string' || value.trim() === '')
      throw new TypeError(
        `client.${method}: ${name} must be a non-empty string, got ${typeof value === 'string' ? JSON.stringify(value) : value === null ? 'null' : typeof value}`,
      );
  });
}

class Client {
  /** The API key the client sends; `auth.login` sets it, `auth.logout` clears it. */
  apiKey: string | undefined;
  /** The team calls act in unless they name another (`{ teamId }`); may be changed at any time. */
  teamId: string | undefined;
  /** `{base_url}`, without a trailing slash. */
  readonly baseUrl: string;
  /** `{backend_url}`, without a trailing slash. */
  readonly backendUrl: string;
  readonly #fetch: NonNullable<ClientOptions['fetch']>;
  readonly #maxRetries: number;
  readonly #onRetry: ClientOptions['onRetry'];
  readonly #userAgent: string;

  constructor(options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.backendUrl = (options.backendUrl ?? this.baseUrl.replace(/\/v1$/, '')).replace(/\/+$/, '');
    this.apiKey = options.apiKey;
    this.teamId = options.teamId;
    this.#fetch = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
    this.#maxRetries = options.maxRetries ?? 2;
    this.#onRetry = options.onRetry;
    this.#userAgent = [options.userAgent?.trim(), `platform-sdk/${clientVersion}`].filter(Boolean).join(' ');
    const groups = this as unknown as Record<string, Record<string, (...args: unknown[]) => unknown>>;
    for (const row of operationTable as readonly Row[]) {
      groups[row.group] ??= {};
      (groups[row.group] as Record<string, unknown>)[row.name] = (...args: unknown[]) =>
        this.#method(row, args);
    }
    // The one method the table cannot make: it streams (src/follow.ts).
    groups.deployments ??= {};
    groups.deployments.follow = (id, options) => this.#follow(id as string, options as FollowOptions);
  }

  /** `deployments.follow`: the log stream, opened again after the last line whenever it ends early. */
  #follow(id: string, options?: FollowOptions): AsyncGenerator<FollowEvent, void> {
    requirePathValues('deployments.follow', ['id'], [id]);
    const teamId = options?.teamId ?? this.teamId;
    const team = teamId ? `?${new URLSearchParams({ teamId })}` : '';
    const url = `${this.baseUrl}/deployments/${encodeURIComponent(id)}/logs${team}`;
    return follow((lastEventId, signal) => {
      const headers: Record<string, string> = { accept: 'text/event-stream', 'user-agent': this.#userAgent };
      if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
      if (lastEventId > 0) headers['last-event-id'] = String(lastEventId);
      return this.#fetch(url, { headers, signal: signal ?? null });
    }, options);
  }

  /** Sorts a method's arguments (path parameters, body, query, options) and makes the call or the list. */
  #method(row: Row, args: unknown[]): unknown {
    const params = args.slice(0, row.params?.length ?? 0) as string[];
    if (row.params) {
      try {
        requirePathValues(`${row.group}.${row.name}`, row.params, params);
      } catch (error) {
        // Where a call answers a promise, the mistake is its rejection, as any other failure is.
        if (!row.items) return Promise.reject(error);
        throw error;
      }
    }
    let next = params.length;
    const body = row.body ? args[next++] : undefined;
    const query = (row.query ? args[next++] : undefined) as Query | undefined;
    const options = (args[next] ?? {}) as TeamRequestOptions;
    if (!row.items) return this.#call(row, params, body, query, options);
    const items = row.items;
    const page = (cursor?: string | null) =>
      this.#call(
        row,
        params,
        body,
        cursor === undefined ? query : { ...query, cursor },
        options,
      ) as Promise<Page>;
    return {
      page,
      async *[Symbol.asyncIterator]() {
        let cursor = query?.cursor as string | null | undefined;
        do {
          const current = await page(cursor);
          yield* current[items] as unknown[];
          cursor = current.nextCursor;
        } while (cursor);
      },
    };
  }

  async #call(
    row: Row,
    params: string[],
    body: unknown,
    query: Query | undefined,
    options: TeamRequestOptions,
  ) {
    let path = row.path;
    row.params?.forEach((name, i) => {
      path = path.replace(`{${name}}`, encodeURIComponent(params[i] ?? ''));
    });
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null)
        search.set(name, Array.isArray(value) ? value.join(',') : String(value));
    }
    const teamId = row.team ? (options.teamId ?? this.teamId) : undefined;
    if (teamId) search.set('teamId', teamId);
    const url = `${row.backend ? this.backendUrl : this.baseUrl}${path}${search.size ? `?${search}` : ''}`;
    const headers: Record<string, string> = { 'user-agent': this.#userAgent };
    if (row.auth && this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (row.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey ?? newIdempotencyKey();
    const init: RequestInit = {
      method: row.method,
      headers,
      body: body === undefined ? null : JSON.stringify(body),
    };
    if (options.signal) init.signal = options.signal;
    // PATCH is never retried, and a POST only with the key that makes a second attempt a replay.
    const retried = RETRIED.has(row.method) || (row.method === 'POST' && !!row.idempotencyKey);
    const maxRetries = retried ? (options.maxRetries ?? this.#maxRetries) : 0;

    for (let attempt = 0; ; attempt += 1) {
      let response: Response;
      try {
        response = await this.#fetch(url, init);
      } catch (error) {
        if (attempt >= maxRetries || options.signal?.aborted) throw error;
        await this.#retryAfter({ attempt, delayMs: backoff(attempt), error }, options.signal);
        continue;
      }
      if (response.ok) return this.#reply(row, response);
      // A 409 with Retry-After: this request's Idempotency-Key is held by one still running (its own
      // earlier attempt, say, that timed out here): waiting gets that one's answer replayed.
      const inProgress = response.status === 409 && response.headers.has('retry-after');
      if (attempt >= maxRetries || (response.status !== 429 && response.status < 500 && !inProgress))
        throw await errorOf(response);
      await response.body?.cancel();
      const delayMs = retryAfterMs(response.headers.get('retry-after')) ?? backoff(attempt);
      await this.#retryAfter({ attempt, delayMs, status: response.status }, options.signal);
    }
  }

  #retryAfter(retry: RetryInfo, signal: AbortSignal | undefined): Promise<void> {
    this.#onRetry?.(retry);
    return sleep(retry.delayMs, signal);
  }

  async #reply(row: Row, response: Response): Promise<unknown> {
    if (row.reply === 'text') return response.text();
    if (row.reply === 'none' || response.status === 204) {
      await response.body?.cancel();
      if (row.id === 'logout') this.apiKey = undefined;
      return undefined;
    }
    const json: unknown = await response.json();
    if (row.id === 'login') this.apiKey = (json as { apiKey: string }).apiKey;
    return json;
  }
}

/**
 * A client of both servers: `client.<group>.<method>(...)`, one method per operation of the document,
 * grouped by tag (`client.projects.list()`, `client.auth.login({ email, password })`).
 */
export type PlatformClient = Client &
  Omit<Groups, 'deployments'> & {
    deployments: Groups['deployments'] & {
      /**
       * Follows a build as it happens (`GET {base_url}/deployments/{id}/logs`, `text/event-stream`): its
       * status, every log line once and in order, then `end`. Reconnects by itself with `Last-Event-ID`.
       */
      follow(id: string, options?: FollowOptions): AsyncGenerator<FollowEvent, void>;
    };
  };
export const PlatformClient = Client as new (options: ClientOptions) => PlatformClient;
