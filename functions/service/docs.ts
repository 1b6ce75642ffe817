import { openEndpoint } from '#shared/http/endpoint.ts';
import { DOCS_CSP, docsPage, docsRoot, INIT_SCRIPT } from '#shared/openapi/docs-page.ts';
import { publishedDocument } from '#shared/openapi/published-document.ts';
import { rendererFile } from '#shared/openapi/renderer-files.ts';
import { documentServedAt } from '#shared/openapi/served-document.ts';
import { stageNames } from '#shared/routes.ts';
import { config } from '#shared/runtime/config.ts';

// The OpenAPI document (as published, shared/openapi/published-document.ts) and the page that renders
// it: every row of the route table with the handler `docs`, one function. The files change only with
// a deployment, so browsers may keep them an hour.
const cached = { 'Cache-Control': 'public, max-age=3600', 'X-Content-Type-Options': 'nosniff' };

export const handler = openEndpoint('docs', {}, async ({ request, reply }) => {
  switch (request.resource) {
    case '/openapi.json': {
      // "Try it out" calls the servers' defaults: the addresses this document was fetched from.
      const backendUrl = `${request.origin}${docsRoot(request.path.replace(/\/openapi\.json$/, ''))}`;
      return reply.ok(
        documentServedAt(publishedDocument(), {
          backend_url: backendUrl,
          base_url: config.PLATFORM_BASE_URL ?? `${request.origin}/${stageNames.platform}`,
        }),
      );
    }
    case '/docs':
      return reply.text('text/html', docsPage(request.path), {
        'Content-Security-Policy': DOCS_CSP,
        'X-Content-Type-Options': 'nosniff',
      });
    case '/docs/swagger-ui.css':
      return reply.text('text/css', rendererFile('swagger-ui.css'), cached);
    case '/docs/swagger-ui-bundle.js':
      return reply.text('text/javascript', rendererFile('swagger-ui-bundle.js'), cached);
    case '/docs/init.js':
      return reply.text('text/javascript', INIT_SCRIPT, cached);
    default:
      throw new Error(`The docs function serves no ${request.resource}: a route row without a case here`);
  }
});
