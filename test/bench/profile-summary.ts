// `node test/bench/profile-summary.ts <file.cpuprofile> [rows]`: a V8 CPU profile's self time by
// function and by package (node_modules/<name>, the repository's own directories, node: internals),
// the largest first, as shares of the time the process was busy (idle left out).
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

const [file, rowsArg] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-summary.ts <file.cpuprofile> [rows]');
const rows = Number(rowsArg ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8')) as {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
};
const selfMicros = new Map<number, number>();
profile.samples.forEach((id, index) => {
  selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
});
const idle = new Set(
  profile.nodes.filter((node) => node.callFrame.functionName === '(idle)').map((node) => node.id),
);
for (const id of idle) selfMicros.delete(id);
const total = [...selfMicros.values()].reduce((a, b) => a + b, 0);

const packageOf = (url: string): string => {
  if (url === '') return '(native, gc)';
  if (url.startsWith('node:')) return url;
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules?.[1]) return modules[1];
  const own = /\/(shared|infra|functions|test)\/([^/]+)/.exec(url);
  return own ? `${own[1]}/${own[2]}` : url;
};

const byFunction = new Map<string, number>();
const byPackage = new Map<string, number>();
for (const node of profile.nodes) {
  const micros = selfMicros.get(node.id) ?? 0;
  if (micros === 0) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  const where =
    url === ''
      ? ''
      : ` ${url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(shared|infra|functions|test)\//, '$1/')}:${lineNumber + 1}`;
  const name = `${functionName || '(anonymous)'}${where}`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
  const pkg = packageOf(url);
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + micros);
}

const print = (title: string, entries: Map<string, number>) => {
  console.log(`\n${title} (of ${(total / 1000).toFixed(0)} ms busy)`);
  for (const [name, micros] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, rows)) {
    console.log(`${((micros / total) * 100).toFixed(1).padStart(5)}%  ${name}`);
  }
};
print('self time by package', byPackage);
print('self time by function', byFunction);
