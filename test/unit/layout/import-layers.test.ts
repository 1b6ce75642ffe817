import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { forbiddenFor, LAYERS, specifiersOf, upwardImports } from '#infra/scripts/import-layers.ts';

// The layers of shared/ are enforced by Biome (`npm run check`); these keep biome.json's lists equal
// to the one layer order, and the counting script honest.

const ROOT = join(import.meta.dirname, '../../..');

interface Override {
  includes: string[];
  linter: {
    rules: { style: { noRestrictedImports: { options: { patterns: { group: string[] }[] } } } };
  };
}

const overrides = (JSON.parse(readFileSync(join(ROOT, 'biome.json'), 'utf8')) as { overrides: Override[] })
  .overrides;

const forbiddenInBiome = (include: string): string[] => {
  const override = overrides.find((entry) => entry.includes.includes(include));
  const patterns = override?.linter.rules.style.noRestrictedImports.options.patterns ?? [];
  return patterns.flatMap((pattern) => pattern.group).filter((specifier) => specifier.startsWith('#shared/'));
};

const includeOf = (layer: (typeof LAYERS)[number]): string =>
  layer === 'routes' ? 'shared/routes.ts' : `shared/${layer}/**`;

describe('the import layers of shared/', () => {
  it.each(LAYERS.map((layer) => [layer]))('forbids %s every layer above it in biome.json', (layer) => {
    expect(forbiddenInBiome(includeOf(layer))).toEqual(forbiddenFor(layer).flatMap(specifiersOf));
  });

  it('has no import line that runs upward', () => {
    expect(upwardImports(ROOT)).toEqual([]);
  });

  it('counts an upward import, relative or through the alias', () => {
    const root = mkdtempSync(join(tmpdir(), 'layers-'));
    const write = (path: string, text: string): void => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    };
    try {
      write('shared/model/text.ts', "import { x } from '#shared/runtime/clock.ts';\n");
      write(
        'shared/db/users.ts',
        "import { a } from '../domain/auth.ts';\nimport { b } from './pages.ts';\n",
      );
      write('shared/schemas/common.ts', "import { c } from '#shared/http/metrics.ts';\n");
      expect(upwardImports(root).map(({ file, line, from, to }) => ({ file, line, from, to }))).toEqual([
        { file: 'shared/db/users.ts', line: 1, from: 'db', to: 'domain' },
        { file: 'shared/schemas/common.ts', line: 1, from: 'schemas', to: 'http' },
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
