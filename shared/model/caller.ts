import type { Scope } from './scopes.ts';
import type { TokenLimits } from './team-tokens.ts';
import type { TeamContext } from './teams.ts';

export type Role = 'admin' | 'member';

/** Who is calling, as established by the API key on the request. */
export interface Caller {
  userId: string;
  role: Role;
  keyId: string;
  /** The presented key's name: a team token's names it in the audit log, where it is who acted. */
  keyName: string;
  /** The presented key's digest: logout revokes it with one consistent write, not through an index. */
  keyHash: string;
  /** What the presented key may do. */
  scopes: Scope[];
  /** When the presented key expires (epoch seconds): a key it creates cannot outlive it. */
  keyExpiresAt: number;
  /** The presented key's own allowance, when it has one: a key it creates inherits it. */
  keyRateLimit?: number;
  /**
   * The team the request acts in (`?teamId=`, else the caller's personal team): where its
   * resources are read and written, and the role that decides what it may do there.
   */
  team: TeamContext;
  /**
   * Set when the key is a team token: it acts as its team (then `userId` is the team's id, under
   * which its tokens are listed), within these limits.
   */
  token?: TokenLimits;
}
