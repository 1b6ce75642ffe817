import type { MiddlewareObj } from '@middy/core';
import { PayloadTooLargeError, UnsupportedMediaTypeError } from '#shared/http/answers/http-errors.ts';
import { headerValue } from '#shared/http/headers.ts';
import type { EndpointContext, EndpointRequest, ProxyEvent, ProxyResult } from '#shared/http/types.ts';
import { MAX_REQUEST_BODY_BYTES } from '#shared/model/error-catalogue.ts';
import { ValidationError } from '#shared/model/errors.ts';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.ts';

// Fatal: bytes that are not UTF-8 are refused, not silently replaced with U+FFFD (RFC 8259 §8.1).
const UTF8 = new TextDecoder('utf-8', { fatal: true });

const JSON_MEDIA_TYPE = /^application\/json\s*(;|$)/i;

/**
 * Reads a JSON request body: size first (64 KiB), then the content type (415), then the JSON itself,
 * which must be an object nested at most MAX_JSON_DEPTH levels deep (checked before anything walks
 * it). The parsed value lands on the request state for input validation.
 */
export function jsonBody(): MiddlewareObj<ProxyEvent, ProxyResult, Error, EndpointContext> {
  const before = (request: EndpointRequest): void => {
    const { event } = request;
    const raw = event.body ?? '';
    const bytes = event.isBase64Encoded ? Buffer.from(raw, 'base64') : Buffer.from(raw, 'utf8');
    if (bytes.byteLength > MAX_REQUEST_BODY_BYTES) throw new PayloadTooLargeError(MAX_REQUEST_BODY_BYTES);
    if (bytes.byteLength === 0) throw new ValidationError('body', 'Request body must be a JSON object');
    if (!JSON_MEDIA_TYPE.test(headerValue(event, 'content-type') ?? ''))
      throw new UnsupportedMediaTypeError();

    let text: string;
    try {
      text = UTF8.decode(bytes);
    } catch {
      throw new ValidationError('body', 'Request body must be UTF-8 text');
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new ValidationError('body', 'Request body is not valid JSON');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new ValidationError('body', 'Request body must be a JSON object');
    }
    if (nestsDeeperThan(parsed, MAX_JSON_DEPTH)) {
      throw new ValidationError(
        'body',
        `Request body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep`,
      );
    }
    request.context.state.body = parsed;
  };
  return { before };
}
