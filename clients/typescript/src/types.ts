import type { operations } from './generated/openapi.ts';

/** An operationId of the document. */
export type OperationId = keyof operations;

type Parameters<I extends OperationId> = operations[I] extends { parameters: infer P } ? P : never;

/**
 * The query parameters of an operation, but `teamId`: the client sends that one (its `teamId`, or a
 * call's `TeamRequestOptions.teamId`).
 */
export type Query<I extends OperationId> = Omit<
  NonNullable<Parameters<I> extends { query?: infer Q } ? Q : never>,
  'teamId'
>;

/** The JSON request body of an operation. */
export type Body<I extends OperationId> =
  NonNullable<operations[I]['requestBody']> extends { content: { 'application/json': infer B } } ? B : never;

/** The JSON body of an operation's answer with `status`. */
export type JsonReply<I extends OperationId, S extends number> = operations[I]['responses'] extends infer R
  ? S extends keyof R
    ? R[S] extends { content: { 'application/json': infer B } }
      ? B
      : never
    : never
  : never;

/** Per-call options, the last argument of every method. */
export interface RequestOptions {
  /** Sent as `Idempotency-Key` on a POST that takes one, instead of the key the client generates. */
  idempotencyKey?: string;
  /** Aborts the call, retries included. */
  signal?: AbortSignal;
  /** Overrides the client's `maxRetries` for this call. */
  maxRetries?: number;
}

/** Per-call options of an operation that acts in a team (`?teamId=`). */
export interface TeamRequestOptions extends RequestOptions {
  /** Acts in this team for this call, instead of the client's `teamId`. */
  teamId?: string;
}

/**
 * A paginated list: `for await (const item of list)` walks every page; `page()` fetches one page
 * (the one at `cursor`, or at the query's cursor) with its `nextCursor`.
 */
export interface List<Page, Key extends string> extends AsyncIterable<ItemOf<Page, Key>> {
  page(cursor?: string | null): Promise<Page>;
}

/** The type of one item of a list page. */
export type ItemOf<Page, Key extends string> = Page extends { [K in Key]: (infer Item)[] } ? Item : never;
