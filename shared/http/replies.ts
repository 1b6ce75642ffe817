import type { Reply } from './types.ts';

export const ok = (body: unknown): Reply => ({ status: 200, body });

/** 201 with the new resource's address: the collection path the client posted to, plus the id. */
export const created = (body: { id: string }, collectionPath: string): Reply => ({
  status: 201,
  body,
  headers: { Location: `${collectionPath.replace(/\/+$/, '')}/${encodeURIComponent(body.id)}` },
});

/** A list page in the contract's shape: `{ <name>: [...], nextCursor }`. */
export const page = <T>(name: string, result: { items: T[]; nextCursor: string | null }): Reply =>
  ok({ [name]: result.items, nextCursor: result.nextCursor });
