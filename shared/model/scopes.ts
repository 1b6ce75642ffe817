// What a key may do. `read` allows reading (GET); `write` allows everything a user does; `build`
// allows what a build system does (report a deployment's events, append its log, read it and its
// build environment), and nothing else. `write` does not include `build`: only a key made with `build` reads a
// deployment's build environment. A key's scopes are checked at admission, on the item the counting
// write returns: no extra call.

export const SCOPES = ['read', 'write', 'build'] as const;
export type Scope = (typeof SCOPES)[number];

/** What login issues, and what keys stored before scopes existed could do. */
export const USER_SCOPES = ['read', 'write'] as const satisfies readonly Scope[];

/** The scope a request needs, by its method, when its route names none. */
export const scopeFor = (method: string): Scope => (method === 'GET' || method === 'HEAD' ? 'read' : 'write');

/** Whether a key holding `held` has the scope `needed` (`write` includes `read`, nothing includes `build`). */
const has = (held: readonly Scope[], needed: Scope): boolean =>
  held.includes(needed) || (needed === 'read' && held.includes('write'));

/** Whether a key holding `held` may make a request that any one of `accepted` allows. */
export const allows = (held: readonly Scope[], accepted: Scope | readonly Scope[]): boolean =>
  (typeof accepted === 'string' ? [accepted] : accepted).some((scope) => has(held, scope));

/**
 * Whether a key holding `held` may make a key with every scope `asked`: its own, or any with
 * `write` (an owner may always act as their own build system, so `write` may make a `build` key).
 */
export const coversAll = (held: readonly Scope[], asked: readonly Scope[]): boolean =>
  asked.every((scope) => held.includes('write') || held.includes(scope));

/** Keys stored before scopes existed could do what a login key does. */
export const scopesOf = (stored: unknown): Scope[] =>
  Array.isArray(stored) ? SCOPES.filter((scope) => stored.includes(scope)) : [...USER_SCOPES];
