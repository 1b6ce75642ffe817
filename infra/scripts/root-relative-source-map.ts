// Names a bundle's source map's sources from the repository root (infra/operations/source-maps.ts), in place:
//   node infra/scripts/root-relative-source-map.ts <index.js.map> <repository root>
// The functions' bundling runs it after esbuild (infra/api/endpoint-function.ts), before CDK hashes the asset.
import { rootRelativeSourceMap } from '../operations/source-maps.ts';

const [mapFile, root] = process.argv.slice(2);
if (!mapFile || !root) {
  console.error('usage: node infra/scripts/root-relative-source-map.ts <index.js.map> <repository root>');
  process.exit(2);
}
rootRelativeSourceMap(mapFile, root);
