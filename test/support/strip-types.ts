import { createHash } from 'node:crypto';
import { stripTypeScriptTypes } from 'node:module';

// Jest's transform for the project's TypeScript: Node's own type stripping, the one `npm start` and
// the scripts run on. The code is erasable syntax only (tsconfig's `erasableSyntaxOnly`), so taking
// the types out is all there is to do, and `npm test` type-checks with tsc before Jest runs. In
// 'strip' mode each type becomes blanks of its length: every line and column stays where it was, so
// coverage and stack traces point at the source without a source map. ts-jest built a TypeScript
// language service in every worker to do the same, which cost more than many of the suites it served.

interface TransformOptions {
  configString: string;
}

const VERSION = `strip-types 1 ${process.version}`;

/**
 * A map from each line to the same line: what Jest needs to place a stack trace's line in the source
 * once coverage has instrumented the code (it maps through the transform's map; without one, traces
 * named lines of the instrumented code). Columns stay as they were, so lines are all it has to say.
 */
function sameLines(sourceText: string, sourcePath: string) {
  const lines = sourceText.split('\n').length;
  return {
    version: 3,
    file: sourcePath,
    sources: [sourcePath],
    names: [],
    mappings: `AAAA${';AACA'.repeat(lines - 1)}`,
  };
}

export default {
  process(sourceText: string, sourcePath: string): { code: string; map: ReturnType<typeof sameLines> } {
    return {
      code: stripTypeScriptTypes(sourceText, { mode: 'strip' }),
      map: sameLines(sourceText, sourcePath),
    };
  },
  getCacheKey(sourceText: string, sourcePath: string, options: TransformOptions): string {
    return createHash('sha256')
      .update(VERSION)
      .update('\0')
      .update(sourcePath)
      .update('\0')
      .update(options.configString)
      .update('\0')
      .update(sourceText)
      .digest('hex');
  },
};
