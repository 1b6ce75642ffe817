import { build } from 'esbuild';
import { bundlingOf, LAMBDA_SUBSTITUTES } from './infra/endpoint-function.ts';
const name = process.argv[2]!;
const b = bundlingOf(name) as any;
const r = await build({
  entryPoints: [`functions/${name}.ts`], bundle: true, platform: 'node', write: false, metafile: true,
  minify: true, keepNames: true, target: 'node24', format: 'cjs', mainFields: ['module', 'main'],
  define: b.define, alias: Object.fromEntries(Object.entries(LAMBDA_SUBSTITUTES)), outfile: '/tmp/x/index.js',
});
const out = Object.values(r.metafile.outputs)[0]!;
console.log(name, 'total', out.bytes);
const groups: Record<string, number> = {};
for (const [f, v] of Object.entries(out.inputs)) {
  const m = f.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  const k = m ? m[1]! : f.split('/').slice(0, 2).join('/');
  groups[k] = (groups[k] ?? 0) + v.bytesInOutput;
}
for (const [k, v] of Object.entries(groups).sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(String(v).padStart(8), k);
if (process.argv[3]) for (const [f, v] of Object.entries(out.inputs).filter(([f]) => !f.includes('node_modules')).sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput).slice(0, 40)) console.log(String(v.bytesInOutput).padStart(8), f);
if (process.argv[4]) for (const [f, v] of Object.entries(out.inputs).filter(([f]) => f.includes(process.argv[4]!)).sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput).slice(0, 30)) console.log(String(v.bytesInOutput).padStart(8), f);
