// Resolves a deployed function's stack trace to .ts files and lines, offline:
//   node infra/scripts/resolve-stack-trace.ts <index.js.map> < trace.txt
// The input is a trace as Lambda logged it, or the function's JSON error line (its error.stack).
// The map is the one shipped beside the function's index.js: in the deployment package
// (`aws lambda get-function --function-name <name> --query Code.Location --output text` is a URL
// of that zip), or in cdk.out/asset.<hash>/ after `npm run synth` of the same commit.
import { readFileSync } from 'node:fs';
import { resolveStackTrace, stackOf } from '../operations/source-maps.ts';

const [mapFile] = process.argv.slice(2);
if (!mapFile) {
  console.error('usage: node infra/scripts/resolve-stack-trace.ts <index.js.map> < trace.txt');
  process.exit(2);
}
const payload = JSON.parse(readFileSync(mapFile, 'utf8'));
const input = readFileSync(0, 'utf8').trim();
console.log(resolveStackTrace(stackOf(input), payload, mapFile, process.cwd()));
