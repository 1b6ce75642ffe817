// What a key may do. `read` allows reading (GET) only; `write` allows everything. A key's scopes are
// checked at admission, on the item the counting write returns: no extra call.

export const SCOPES = ['read', 'write'] as const;
export type Scope = (typeof SCOPES)[number];

/** The scope a request needs, by its method. */
export const scopeFor = (method: string): Scope => (method === 'GET' || method === 'HEAD' ? 'read' : 'write');

/** Whether keys with `held` scopes may make a request that needs `needed`. */
export const allows = (held: readonly Scope[], needed: Scope): boolean =>
  held.includes('write') || held.includes(needed);

/** Whether every scope asked for is already allowed by the scopes held. */
export const coversAll = (held: readonly Scope[], asked: readonly Scope[]): boolean =>
  asked.every((scope) => allows(held, scope));

/** Keys stored before scopes existed could do everything. */
export const scopesOf = (stored: unknown): Scope[] =>
  Array.isArray(stored) ? SCOPES.filter((scope) => stored.includes(scope)) : [...SCOPES];
