import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { openApiDocument } from '#shared/openapi/document.ts';
import { documentText, publishedDocumentPath } from '#shared/openapi/published-document.ts';

// `npm run openapi`: generates the OpenAPI document from the route table and the zod schemas and
// writes it where it is published (shared/openapi/openapi.json, which the docs function serves);
// commit the change with the change of the sources. `npm run openapi -- <file>` writes it elsewhere,
// `-- -` to stdout.

const text = documentText(openApiDocument());
const target = process.argv[2] ?? publishedDocumentPath();
if (target === '-') process.stdout.write(text);
else {
  writeFileSync(target, text);
  console.log(`Wrote ${relative(process.cwd(), target)}`);
}
