import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OpenApiDocument } from './document.ts';

// The OpenAPI document as published: shared/openapi/openapi.json, generated from the route table
// and the zod schemas (document.ts) by `npm run openapi`, and committed. Clients generate code from
// it without running anything, a review shows each change of the contract as a diff, and a test
// fails while it differs from what the sources generate.
//
// The docs function serves this file rather than generating it, so that the generator (zod-openapi
// and zod's classic API, 130 KB) is in no bundle. In the repository the file is read from here; in
// the Lambda bundle, where esbuild defines `import.meta.dirname` as the bundle's folder
// (infra/api/endpoint-function.ts), from beside index.js, where the stack copies it: one lookup serves both.

const PUBLISHED_DOCUMENT_FILE = 'openapi.json';

/** Where the published document is read from: this folder in the repository, the bundle's in Lambda. */
export const publishedDocumentPath = (): string => join(import.meta.dirname, PUBLISHED_DOCUMENT_FILE);

/** The file's text for a document: two-space JSON and a final newline, so that diffs stay readable. */
export const documentText = (document: OpenApiDocument): string => `${JSON.stringify(document, null, 2)}\n`;

let published: OpenApiDocument | undefined;

/** The published document, read once per container. */
export function publishedDocument(): OpenApiDocument {
  published ??= JSON.parse(readFileSync(publishedDocumentPath(), 'utf8')) as OpenApiDocument;
  return published;
}
