import { errorShaping } from '#shared/http/answers/error-response.ts';
import { jsonBody } from '#shared/http/input/json-body.ts';
import { bodyOf, proxyEvent, runChain, type TestHandler } from '../../support/proxy-events.ts';

// jsonBody: size, then media type, then UTF-8 and JSON, then "an object"; the parsed body lands on
// the request state for validation.

const LIMIT = 64 * 1024;

/** The handler answers with the body json-body left on the state. */
const echo: TestHandler = async (_event, context) => ({
  statusCode: 200,
  headers: {},
  body: JSON.stringify({ parsed: context.state.body }),
});

const post = (
  body: string | null,
  headers: Record<string, string> = { 'Content-Type': 'application/json' },
  base64 = false,
) =>
  runChain(
    [errorShaping(), jsonBody()],
    proxyEvent({ method: 'POST', resource: '/projects', headers, body, isBase64Encoded: base64 }),
    echo,
  ).then(({ result }) => result);

describe('JSON request bodies', () => {
  it('parses an object and hands it on', async () => {
    const result = await post('{"name":"web","nested":{"n":1}}');
    expect(result.statusCode).toBe(200);
    expect(bodyOf(result)).toEqual({ parsed: { name: 'web', nested: { n: 1 } } });
  });

  it('accepts a charset parameter and any casing of the media type', async () => {
    const result = await post('{"a":1}', { 'content-type': 'Application/JSON; charset=utf-8' });
    expect(bodyOf(result)).toEqual({ parsed: { a: 1 } });
  });

  it('decodes a base64-encoded body', async () => {
    const result = await post(Buffer.from('{"a":"é"}').toString('base64'), undefined, true);
    expect(bodyOf(result)).toEqual({ parsed: { a: 'é' } });
  });

  it('takes a body of exactly 64 KiB and refuses one byte more with 413', async () => {
    const exactly = `{"p":"${'x'.repeat(LIMIT - 8)}"}`;
    expect(Buffer.byteLength(exactly)).toBe(LIMIT);
    expect((await post(exactly)).statusCode).toBe(200);
    const over = await post(`{"p":"${'x'.repeat(LIMIT - 7)}"}`);
    expect(over.statusCode).toBe(413);
    expect(bodyOf(over)).toEqual({
      error: 'payload_too_large',
      message: 'Request body must not exceed 65536 bytes',
    });
  });

  it('checks the size before the media type: a huge body in the wrong type is a 413', async () => {
    const result = await post('x'.repeat(LIMIT + 1), { 'Content-Type': 'text/plain' });
    expect(result.statusCode).toBe(413);
  });

  it('refuses another media type, or none, with 415', async () => {
    const variants: Record<string, string>[] = [
      { 'Content-Type': 'text/plain' },
      { 'Content-Type': 'application/jsonx' },
      {},
    ];
    for (const headers of variants) {
      const result = await post('{"a":1}', headers);
      expect(result.statusCode).toBe(415);
      expect(bodyOf(result)).toEqual({
        error: 'unsupported_media_type',
        message: 'Request body must be sent with Content-Type: application/json',
      });
    }
  });

  it.each([
    ['no body', null, 'Request body must be a JSON object'],
    ['an empty body', '', 'Request body must be a JSON object'],
    ['broken JSON', '{"name":', 'Request body is not valid JSON'],
    ['an array', '[1,2]', 'Request body must be a JSON object'],
    ['a string', '"web"', 'Request body must be a JSON object'],
    ['null', 'null', 'Request body must be a JSON object'],
  ])('answers %s with a 400 naming body', async (_case, body, message) => {
    const result = await post(body);
    expect(result.statusCode).toBe(400);
    expect(bodyOf(result)).toEqual({ error: 'validation_error', message, field: 'body' });
  });

  it('refuses bytes that are not UTF-8 instead of replacing them', async () => {
    const latin1 = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xe9, 0x22, 0x7d]); // {"a":"<é in Latin-1>"}
    const result = await post(latin1.toString('base64'), undefined, true);
    expect(result.statusCode).toBe(400);
    expect(bodyOf(result)).toEqual({
      error: 'validation_error',
      message: 'Request body must be UTF-8 text',
      field: 'body',
    });
  });
});
