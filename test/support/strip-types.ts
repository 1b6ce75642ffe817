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

export default {
  process(sourceText: string): { code: string } {
    return { code: stripTypeScriptTypes(sourceText, { mode: 'strip' }) };
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
