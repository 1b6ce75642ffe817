import type * as z from 'zod/mini';
import type { Reply } from '#shared/http/types.ts';
import type { RouteTable } from '#shared/routes.ts';
import type { requestSchemas } from '#shared/schemas/requests.ts';
import type { ResponseBodyName, responseBodies } from '#shared/schemas/responses.ts';

// What a handler may take and give, read from its rows in the route table: the input schemas its row
// names and, for each status the row documents, the body of that status's schema. Types only: no
// function bundle carries a schema it does not parse with.

type Row = RouteTable[number];

export type HandlerName = Row['handler'];
export type KeyHandlerName = Extract<Row, { access: 'apiKey' }>['handler'];
export type OpenHandlerName = Exclude<HandlerName, KeyHandlerName>;

/** The rows of a handler that are operations (a fallback has none: it only throws). */
type OperationRowsOf<H extends HandlerName> = Extract<Row, { handler: H; replies: object }>;

type SpecAt<R, S> = R extends { replies: infer M } ? (S extends keyof M ? M[S] : never) : never;
type StatusesOf<R> = R extends { replies: infer M } ? keyof M & number : never;
type Output<Name> = z.output<(typeof responseBodies)[Name & ResponseBodyName]>;

// A reply spec is a body name (JSON), or an object naming its body with a media type (text) or with
// headers (Location makes it a `created` reply). Each of these is distributive over a union of specs,
// which a handler with several rows (docs) has at one status.
type LocationIn<Spec> = Spec extends { headers: readonly (infer Header)[] }
  ? Extract<Header, 'Location'>
  : never;
type PlainJsonBody<Spec> = Spec extends null
  ? never
  : Spec extends ResponseBodyName
    ? Output<Spec>
    : Spec extends { mediaType: string }
      ? never
      : [LocationIn<Spec>] extends [never]
        ? Spec extends { body: infer Name }
          ? Output<Name>
          : never
        : never;
type CreatedBody<Spec> = Spec extends { body: infer Name }
  ? [LocationIn<Spec>] extends [never]
    ? never
    : Output<Name>
  : never;
type ExtraHeadersIn<Spec> = Spec extends { headers: readonly (infer Header)[] }
  ? Exclude<Header, 'Location'> & string
  : never;
type EventsIn<Spec> = Spec extends { events: infer Name } ? Name : never;
type TextMediaTypeIn<Spec> = Spec extends { mediaType: infer T extends string } ? T : never;

/** The statuses the handler's rows document for its replies. */
export type ReplyStatusOf<H extends HandlerName> = StatusesOf<OperationRowsOf<H>>;

type SpecsOf<H extends HandlerName, S> = SpecAt<OperationRowsOf<H>, S>;

/** The statuses a handler may answer with a plain JSON body. */
type JsonStatusOf<H extends HandlerName> = {
  [S in ReplyStatusOf<H>]: [PlainJsonBody<SpecsOf<H, S>>] extends [never] ? never : S;
}[ReplyStatusOf<H>];

declare const documentedFor: unique symbol;

/** A reply built by the helpers below for handler H: the only thing its endpoint accepts. */
export type DocumentedReply<H extends HandlerName> = Reply & { readonly [documentedFor]: H };

/** How a handler replies; each takes exactly the body its rows document for that status. */
export interface ReplyHelpers<H extends HandlerName> {
  /** 200 with its JSON body. */
  ok(body: PlainJsonBody<SpecsOf<H, 200>>): DocumentedReply<H>;
  /** 200 with its JSON body and the headers its rows document for it (`Wait-Result`). */
  okWith(
    body: PlainJsonBody<SpecsOf<H, 200>>,
    headers: Record<ExtraHeadersIn<SpecsOf<H, 200>>, string>,
  ): DocumentedReply<H>;
  /** 201 with `Location`: the collection path the client posted to, plus the new id. */
  created(body: CreatedBody<SpecsOf<H, 201>> & { id: string }, collectionPath: string): DocumentedReply<H>;
  /** 201 with `Location`, for a body whose id is not at its top (a new key and its secret). */
  createdWithId(body: CreatedBody<SpecsOf<H, 201>>, collectionPath: string, id: string): DocumentedReply<H>;
  /** Another documented status with its JSON body (a 503, a 201 without Location). */
  json<S extends JsonStatusOf<H>>(status: S, body: PlainJsonBody<SpecsOf<H, S>>): DocumentedReply<H>;
  /** 204 with no body, where its rows document one. */
  noContent(this: void, ...none: null extends SpecsOf<H, 204> ? [] : [never]): DocumentedReply<H>;
  /**
   * 200 as text/event-stream, where its rows document one (`events`): the chunks written as they come
   * by a streaming function (shared/http/answers/streaming.ts).
   */
  events(
    events: [EventsIn<SpecsOf<H, 200>>] extends [never] ? never : AsyncIterable<string>,
  ): DocumentedReply<H>;
  /** 200 with a page or file in one of the media types its rows document. */
  text(
    mediaType: TextMediaTypeIn<SpecsOf<H, 200>>,
    body: string,
    headers?: Record<string, string>,
  ): DocumentedReply<H>;
}

type RequestNamesOf<H extends HandlerName> = [OperationRowsOf<H>] extends [never]
  ? Record<never, never>
  : OperationRowsOf<H> extends { request: infer Names }
    ? Names
    : Record<never, never>;

/** The input schemas the handler's row names: the function passes exactly these to its endpoint. */
export type RequestSchemasOf<H extends HandlerName> = {
  -readonly [K in keyof RequestNamesOf<H>]: (typeof requestSchemas)[RequestNamesOf<H>[K] &
    keyof typeof requestSchemas];
};
