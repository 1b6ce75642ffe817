export type Role = 'admin' | 'member';

/** Who is calling, as established by the API key on the request. */
export interface Caller {
  userId: string;
  role: Role;
  keyId: string;
}
