import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex, Writable } from 'node:stream';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { LOCAL_MAX_SOCKETS } from '#shared/db/client.ts';
import { errorCatalogue } from '#shared/model/error-catalogue.ts';
import { type Route, routes } from '#shared/routes.ts';
import { config } from '#shared/runtime/config.ts';
import { withDeadline } from '#shared/runtime/deadline.ts';
import { functionMemoryMb, functionTimeoutSeconds, holdsOpenMs } from '#shared/runtime/function-settings.ts';
import { logError } from '#shared/runtime/log.ts';
import { handlerEntry } from '../handler-entries.ts';
import { enforceGrants } from './iam/enforce.ts';
import { runAs } from './iam/principal.ts';
import { invocationSlots } from './invocation-slots.ts';
import { installStreamingRuntime, responseStreamTo } from './lambda-streaming.ts';
import { buildProxyEvent } from './proxy-event.ts';
import { parseRequestTarget } from './request-target.ts';
import { matchRequest } from './router.ts';

// The local stand-in for API Gateway: one node:http server for both API groups. Each request
// becomes the REST proxy event, goes to the same handler module Lambda would load, run as that
// route's function with exactly its grants (infra/local/iam: what its role does not allow is
// refused as IAM would), and the handler's result is written back as API Gateway would write it.

type LambdaHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
/** A streaming function's entry point (a row that `streams`): it answers through the stream it is given. */
type StreamingHandler = (event: APIGatewayProxyEvent, stream: Writable, context: Context) => Promise<void>;

/** API Gateway's own ceiling on a request payload; the handlers enforce the contract's smaller one. */
const GATEWAY_MAX_BODY_BYTES = 10 * 1024 * 1024;
/**
 * Connections the kernel may hold for the server before it accepts them. Node's default, 511,
 * resets the rest of a burst of a thousand clients that connect at once (API Gateway accepts them).
 */
export const LISTEN_BACKLOG = 4096;

/**
 * Of a request's deadline, what is kept for shaping and writing its answer once its store calls are
 * cut off: the local gateway counts the deadline from arrival and answers within it, also when a
 * burst queued the request behind others (invocation-slots.ts).
 */
const ANSWER_MS = 100;

async function loadHandlers(): Promise<Map<string, LambdaHandler>> {
  // Streaming functions wrap themselves with the runtime's `awslambda` when they load: the stand-in
  // must be there first.
  installStreamingRuntime();
  const handlers = new Map<string, LambdaHandler>();
  for (const route of routes) {
    const module: { handler: LambdaHandler } = await import(handlerEntry(route.handler));
    handlers.set(route.handler, module.handler);
  }
  return handlers;
}

/** The context Lambda would give the route's function: its name, its memory and its time left. */
export function lambdaContext(route: Route): Context {
  const functionName = route.handler;
  const deadline = Date.now() + functionTimeoutSeconds(route) * 1000;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: String(functionMemoryMb(route)),
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

function writeResult(res: ServerResponse, result: APIGatewayProxyResult): void {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name] = String(value);
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {}))
    headers[name] = values.map(String);
  res.writeHead(result.statusCode, headers);
  res.end(result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body);
}

/** Reads the body up to API Gateway's limit; undefined when the client sent more. */
async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.byteLength;
    if (size > GATEWAY_MAX_BODY_BYTES) return undefined;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/** Whether an answer can still be written: not begun, and the client still there. */
const canAnswer = (res: ServerResponse): boolean => !res.headersSent && !res.writableEnded && !res.destroyed;

// Answers Node's HTTP parser gives up on (a malformed request line or header): the contract's JSON
// instead of Node's bare 400, written straight to the socket because no response object exists.
function answerUnparsable(error: Error & { code?: string }, socket: Duplex): void {
  logError('local gateway: unparsable request', { code: error.code }, error);
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const body = JSON.stringify({
    error: 'validation_error',
    message: tooLarge ? 'Request headers are too large' : 'Request is not valid HTTP',
  });
  socket.end(
    `HTTP/1.1 ${tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request'}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Connection: close\r\n\r\n${body}`,
  );
}

/** Creates the gateway; every handler module is loaded first, so a bad setting fails here. */
export async function createGateway(): Promise<Server> {
  enforceGrants();
  const handlers = await loadHandlers();
  // As many invocations at once as the store client has sockets: no call waits for one.
  const invoke = invocationSlots(LOCAL_MAX_SOCKETS);

  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // The request's time counts from its arrival here, not from when a slot frees up: queued or
    // invoked late, it is answered within REQUEST_DEADLINE_MS (invocation-slots.ts).
    const arrivedAt = performance.now();
    const workMs = Math.max(0, config.REQUEST_DEADLINE_MS - ANSWER_MS);
    const timeUp = AbortSignal.timeout(workMs);
    const body = await readBody(req);
    if (body === undefined) {
      // What API Gateway's REQUEST_TOO_LARGE gateway response answers in the stack.
      sendJson(res, errorCatalogue.payload_too_large.status, {
        error: 'payload_too_large',
        message: errorCatalogue.payload_too_large.message,
      });
      req.destroy();
      return;
    }
    const method = req.method ?? 'GET';
    const target = parseRequestTarget(req.url ?? '');
    if (!target) {
      sendJson(res, 400, { error: 'validation_error', message: 'Request target must be a path' });
      return;
    }
    const match = matchRequest(method, target.pathname);
    const event = buildProxyEvent(
      { method, target, rawHeaders: req.rawHeaders, body, sourceIp: req.socket.remoteAddress ?? '127.0.0.1' },
      match,
    );
    const handler = handlers.get(match.route.handler);
    if (!handler) throw new Error(`No handler loaded for ${match.route.handler}`);
    if (match.route.streams) {
      // As Lambda runs it behind a streaming integration: its answer goes out as it writes it. It
      // runs outside the slots (a stream lasts minutes, mostly asleep between its reads); its chain
      // keeps its own deadline, and each later read gets one of its own.
      await runAs(match.route.handler, () =>
        (handler as unknown as StreamingHandler)(event, responseStreamTo(res), lambdaContext(match.route)),
      );
      return;
    }
    // A row that holds requests open (a wait) has that long on top, and runs outside the slots: it
    // mostly sleeps, and holding a slot for seconds would queue every other request behind it.
    const holdMs = holdsOpenMs(match.route);
    const run = () =>
      runAs(match.route.handler, () =>
        withDeadline(workMs + holdMs - (performance.now() - arrivedAt), () =>
          handler(event, lambdaContext(match.route)),
        ),
      );
    writeResult(res, await (holdMs > 0 ? run() : invoke(run, timeUp)));
  };

  const server = createServer((req, res) => {
    serve(req, res).catch((error: unknown) => {
      // A function that threw, or a client that went away: API Gateway answers the former with a
      // 5xx, which the stack reshapes like this. Either way it is logged, and the server keeps serving.
      logError('local gateway: request failed', { method: req.method, target: req.url }, error);
      if (canAnswer(res))
        sendJson(res, 502, { error: 'internal_error', message: errorCatalogue.internal_error.message });
    });
  });
  server.on('clientError', answerUnparsable);
  return server;
}
