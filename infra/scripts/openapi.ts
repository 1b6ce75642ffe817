import { writeFileSync } from 'node:fs';
import { openApiDocument } from '../../shared/openapi/document.ts';

// `npm run openapi [-- <file>]`: the OpenAPI document the docs function serves, to a file or stdout
// (for linting, client generation, or a look without starting the server).

const text = `${JSON.stringify(openApiDocument(), null, 2)}\n`;
const file = process.argv[2];
if (file) writeFileSync(file, text);
else process.stdout.write(text);
