import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import getAbsoluteFSPath from 'swagger-ui-dist/absolute-path.js';

// The renderer of the docs page, from the swagger-ui-dist package: no CDN, no network. In the
// repository the files are read from the package. In the Lambda bundle esbuild has inlined
// absolute-path.js, whose `__dirname` is then the bundle's own folder, and the stack copies the files
// there (infra/api/endpoint-function.ts): one lookup serves both.

export const RENDERER_FILES = ['swagger-ui-bundle.js', 'swagger-ui.css'] as const;
export type RendererFile = (typeof RENDERER_FILES)[number];

const loaded = new Map<RendererFile, string>();

/** A renderer file's text, read once per container; its source-map comment is dropped (no map is served). */
export function rendererFile(name: RendererFile): string {
  const known = loaded.get(name);
  if (known !== undefined) return known;
  const text = readFileSync(join(getAbsoluteFSPath(), name), 'utf8').replace(
    /\n?\/[/*]# sourceMappingURL=\S+\s*(\*\/)?\s*$/,
    '\n',
  );
  loaded.set(name, text);
  return text;
}
