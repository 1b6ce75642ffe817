import { errorCatalogue } from '#shared/model/error-catalogue.ts';
import { startGateway, type TestGateway } from '../support/gateway.ts';

// What the local gateway refuses by itself, as API Gateway would in the stack. Sent with fetch, not
// call(): like API Gateway's own refusals these answers carry no X-Request-Id or rate-limit headers
// (the document says so), so they are compared with the error catalogue here instead.

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startGateway();
});
afterAll(() => gateway.close());

it("answers a body over API Gateway's 10 MB with the catalogue's 413, the words the stack uses too", async () => {
  const response = await fetch(`${gateway.baseUrl}/projects`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: 'x'.repeat(10 * 1024 * 1024 + 1),
  });
  expect({ status: response.status, body: await response.json() }).toEqual({
    status: 413,
    body: { error: 'payload_too_large', message: errorCatalogue.payload_too_large.message },
  });
});
