import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { routes } from '#shared/routes.ts';
import { buildProxyEvent } from './proxy-event.ts';
import { matchRequest } from './router.ts';

// The local stand-in for API Gateway: one node:http server for both API groups. Each request
// becomes the REST proxy event, goes to the same handler module Lambda would load, and the
// handler's result is written back as API Gateway would write it.

type LambdaHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/** API Gateway's own ceiling on a request payload; the handlers enforce the contract's smaller one. */
const GATEWAY_MAX_BODY_BYTES = 10 * 1024 * 1024;
const FUNCTION_TIMEOUT_MS = 10_000;
const FUNCTIONS_DIR = join(import.meta.dirname, '..', '..', 'functions');

async function loadHandlers(): Promise<Map<string, LambdaHandler>> {
  const handlers = new Map<string, LambdaHandler>();
  for (const route of routes) {
    const module: { handler: LambdaHandler } = await import(join(FUNCTIONS_DIR, `${route.handler}.ts`));
    handlers.set(route.handler, module.handler);
  }
  return handlers;
}

function lambdaContext(functionName: string): Context {
  const deadline = Date.now() + FUNCTION_TIMEOUT_MS;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '256',
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

/** Creates the gateway; every handler module is loaded first, so a bad setting fails here. */
export async function createGateway(): Promise<Server> {
  const handlers = await loadHandlers();

  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readBody(req);
    if (body === undefined) {
      // What API Gateway's REQUEST_TOO_LARGE gateway response answers in the stack.
      sendJson(res, 413, { error: 'payload_too_large', message: 'Request body is too large' });
      req.destroy();
      return;
    }
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const match = matchRequest(method, new URL(url, 'http://localhost').pathname);
    const event = buildProxyEvent(
      { method, url, rawHeaders: req.rawHeaders, body, sourceIp: req.socket.remoteAddress ?? '127.0.0.1' },
      match,
    );
    const handler = handlers.get(match.route.handler);
    if (!handler) throw new Error(`No handler loaded for ${match.route.handler}`);
    writeResult(res, await handler(event, lambdaContext(match.route.handler)));
  };

  return createServer((req, res) => {
    serve(req, res).catch((error: unknown) => {
      // A client that went away, or a function that threw: API Gateway answers the latter with a
      // 5xx, which the stack reshapes like this. The server itself keeps serving.
      if (req.destroyed || res.headersSent) return;
      console.error(error);
      sendJson(res, 502, { error: 'internal_error', message: 'An unexpected error occurred' });
    });
  });
}
