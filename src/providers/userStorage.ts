/**
 * What the console keeps of the signed-in user in this browser (spec 01 §7: "mobile number and
 * agent id are kept in browser storage"): the mobile number and the agent id (所属代理商) of the
 * current user, written when the user is read (authProvider.getIdentity) and removed at logout.
 * Never a password or any secret: only these two fields are ever written.
 */
const KEY = 'sms-console.user';

export interface StoredUser {
  mobile: string;
  agentId: string;
}

export const userStorage = {
  get(): StoredUser | null {
    try {
      const raw = localStorage.getItem(KEY);
      if (!raw) return null;
      const v = JSON.parse(raw) as Partial<StoredUser>;
      return { mobile: String(v.mobile ?? ''), agentId: String(v.agentId ?? '') };
    } catch {
      return null;
    }
  },
  /** Keeps the user's mobile and agent id (any other field of `user` is ignored). */
  keep(user: { mobile?: unknown; agent_id?: unknown } | null | undefined) {
    try {
      if (!user) return localStorage.removeItem(KEY);
      const v: StoredUser = { mobile: String(user.mobile ?? ''), agentId: String(user.agent_id ?? '') };
      localStorage.setItem(KEY, JSON.stringify(v));
    } catch {
      /* storage unavailable (private mode): nothing kept */
    }
  },
  clear() {
    try {
      localStorage.removeItem(KEY);
    } catch {
      /* nothing kept */
    }
  },
};
