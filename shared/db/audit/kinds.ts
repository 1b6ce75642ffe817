import { ENVIRONMENT_HEAD_KEY, type TableKey, tableKeys, tables } from '#shared/db/tables.ts';
import type { AuditChange, AuditItemKind, AuditTargetType } from '#shared/model/audit.ts';

// Which stored items an audit event can be about, told apart by their keys alone (a delete or an
// update knows no more), and what an event says of one: its target, its project, and what changed.
// What may appear in `changes` is listed field by field: a field not named here (a webhook's signing
// secret, a variable's sealed value, a key's digest, the stamp itself) never reaches an event.

type Item = Record<string, unknown>;

const startsWith = (value: unknown, prefix: string): boolean =>
  typeof value === 'string' && value.startsWith(prefix);

const SORT_KEY_KINDS: readonly [string, AuditItemKind][] = [
  ['member#', 'member'],
  ['invitation#', 'invitation'],
];

/**
 * What kind of item this is, from its keys (or the whole item), if an event can be about it. Every
 * table keys its items differently enough that the keys alone tell: a stream record, like a delete,
 * names no table the function could rely on.
 */
export function kindOf(item: Item): AuditItemKind | undefined {
  // `ledger#<owner>` counts an owner's keys (shared/db/keys/ledger.ts); every other digest is a key.
  if (typeof item.keyHash === 'string') return item.keyHash.startsWith('ledger#') ? undefined : 'apiKey';
  if (item.sk !== undefined) {
    if (item.sk === ENVIRONMENT_HEAD_KEY && typeof item.projectId === 'string') return 'environment';
    if (item.sk === 'head' && typeof item.deploymentId === 'string') return 'deploymentLog';
    if (item.sk === 'team') return 'team';
    return SORT_KEY_KINDS.find(([prefix]) => startsWith(item.sk, prefix))?.[1];
  }
  if (startsWith(item.id, 'prj_')) return 'project';
  if (startsWith(item.id, 'dpl_')) return 'deployment';
  if (startsWith(item.id, 'whk_')) return 'webhook';
  // `project#<id>` counts a project's names; every other item keyed by `pk` alone is a name.
  if (typeof item.pk === 'string' && !item.pk.startsWith('project#')) return 'domain';
  return undefined;
}

/** The tables whose items an event can be about: those shared/db/tables.ts declares audited. */
export const auditedTables: readonly TableKey[] = tableKeys.filter((key) => tables[key].audited);

const afterHash = (value: unknown): string => String(value).slice(String(value).indexOf('#') + 1);

/** The id an event's target has, from the item (a key is enough for all but keys and tokens). */
export function targetIdOf(kind: AuditItemKind, item: Item): string {
  switch (kind) {
    case 'deploymentLog':
      return String(item.deploymentId);
    case 'environment':
      return String(item.projectId);
    case 'domain':
    case 'team':
      return String(item.pk);
    case 'member':
    case 'invitation':
      return afterHash(item.sk);
    case 'apiKey':
      return String(item.keyId ?? '');
    default:
      return String(item.id);
  }
}

/** The team an item belongs to by its key: a team's own items. */
export const teamOfItem = (kind: AuditItemKind, item: Item): string | undefined =>
  kind === 'team' || kind === 'member' || kind === 'invitation' ? String(item.pk) : undefined;

/** The project an item belongs to, where it says. */
export function projectOfItem(kind: AuditItemKind, item: Item): string | undefined {
  if (kind === 'project') return typeof item.id === 'string' ? item.id : undefined;
  return typeof item.projectId === 'string' ? item.projectId : undefined;
}

export const target = (type: AuditTargetType, id: string) => ({ type, id });

/** A project's production pointer as an event shows it: the deployment it points at. */
const pointerOf = (value: unknown): unknown =>
  typeof value === 'object' && value !== null ? ((value as Item).deploymentId ?? null) : null;

/** Per kind, the fields whose changes an event shows, each as shown. */
const SHOWN: Partial<Record<AuditItemKind, Record<string, (value: unknown) => unknown>>> = {
  project: {
    name: (value) => value,
    repository: (value) => value,
    productionBranch: (value) => value,
    autoPromotion: (value) => value !== false,
    production: pointerOf,
  },
  deployment: { status: (value) => value },
  domain: { status: (value) => value },
  webhook: {
    url: (value) => value,
    events: (value) => value,
    enabled: (value) => value,
    description: (value) => value,
  },
  team: { name: (value) => value },
  member: { role: (value) => value },
  invitation: { role: (value) => value },
  apiKey: { name: (value) => value, revokedAt: (value) => value },
};

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * What a write changed, field by field (`from` before, `to` after), among the fields an event may
 * show; for variables, the ones the change touched (key, targets and type: never a value).
 */
export function changesOf(
  kind: AuditItemKind,
  previous: Item | undefined,
  next: Item,
): Record<string, AuditChange> | undefined {
  if (kind === 'environment') {
    const change = next.lastChange as { variables?: unknown } | undefined;
    return change?.variables === undefined ? undefined : { variables: { from: null, to: change.variables } };
  }
  if (!previous) return undefined;
  const changes: Record<string, AuditChange> = {};
  for (const [field, shown] of Object.entries(SHOWN[kind] ?? {})) {
    // An absent field is shown as the API shows it (automatic promotion absent is on).
    const from = shown(previous[field]) ?? null;
    const to = shown(next[field]) ?? null;
    if (!same(from, to)) changes[field] = { from, to };
  }
  return Object.keys(changes).length > 0 ? changes : undefined;
}
