import type { PlatformClient } from '../../src/index.ts';
import { operationTable } from '../../src/index.ts';

interface Document {
  paths: Record<string, Record<string, unknown> & { servers?: { url: string }[] }>;
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

/** Every operation of the document as `operationId (METHOD path)`. */
export function documentedOperations(document: Document): { id: string; label: string }[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => {
      const id = (item[method] as { operationId: string }).operationId;
      return { id, label: `${id} (${method.toUpperCase()} ${item.servers?.[0]?.url ?? ''}${path})` };
    }),
  );
}

/**
 * The document's operations that the client has no method for, as one message naming each, or
 * undefined when every operation has its method.
 */
export function missingMethods(document: Document, client: PlatformClient): string | undefined {
  const groups = client as unknown as Record<string, Record<string, unknown> | undefined>;
  const missing = documentedOperations(document).filter(({ id }) => {
    const row = operationTable.find((candidate) => candidate.id === id);
    return !row || typeof groups[row.group]?.[row.name] !== 'function';
  });
  if (missing.length === 0) return undefined;
  return [
    `${missing.length} operation(s) of shared/openapi/openapi.json have no method in @platform-api/client:`,
    ...missing.map(({ label }) => `  - ${label}`),
    'Run `npm run clients:generate` (`npm run openapi` runs it too) and commit clients/typescript/src/generated/.',
  ].join('\n');
}
