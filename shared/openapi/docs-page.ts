// The docs page: Swagger UI rendering /openapi.json, everything served by this API. A strict Content
// Security Policy allows only the API's own scripts and styles (so the start-up code is a file, not
// an inline script), and images inline in the stylesheet (`data:`); nothing from elsewhere.

export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Starts Swagger UI on the element that names the document; no validator badge (it calls out). */
export const INIT_SCRIPT = `(function () {
  var root = document.getElementById('swagger-ui');
  window.ui = window.SwaggerUIBundle({
    url: root.getAttribute('data-openapi-url'),
    domNode: root,
    deepLinking: true,
    displayOperationId: true,
    validatorUrl: null,
  });
})();
`;

const escapeAttribute = (value: string): string =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The root the page's own URLs hang off, from the path the client used for the page (stage included:
 * `/live/docs` in AWS, `/docs` locally). Repeated slashes are collapsed, so a request for `//docs`
 * cannot turn `//docs/...` into another host's address.
 */
export function docsRoot(pagePath: string): string {
  return pagePath
    .replace(/\/+/g, '/')
    .replace(/\/docs\/?$/, '')
    .replace(/\/$/, '');
}

/** The page's HTML for a request to `pagePath`. */
export function docsPage(pagePath: string): string {
  const root = escapeAttribute(docsRoot(pagePath));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Platform API</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${root}/docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui" data-openapi-url="${root}/openapi.json"></div>
<script src="${root}/docs/swagger-ui-bundle.js"></script>
<script src="${root}/docs/init.js"></script>
</body>
</html>
`;
}
