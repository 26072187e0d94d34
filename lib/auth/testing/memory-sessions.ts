// An in-memory SessionStore for unit tests (the real one is a table: ../session-store.ts).
import type { SessionStore } from '../session';

export function memorySessions(): SessionStore & { readonly open: SessionStore['open'] } {
  const open = new Map<string, { revoked: boolean }>();
  let next = 0;
  return {
    open: async () => {
      const id = `s${++next}`;
      open.set(id, { revoked: false });
      return id;
    },
    isOpen: async (id) => open.get(id)?.revoked === false,
    revoke: async (id) => {
      const session = open.get(id);
      if (session) session.revoked = true;
    },
  };
}
