/**
 * The status service's read role, `leaseboard_reader`: SELECT on every table,
 * now and later, and nothing else (set up with the other roles by the
 * migrator: ./roles.ts). Read pools (./pool.ts `readOnly`) act as it from the
 * connection's start (`SET ROLE`, or `SET LOCAL ROLE` in each transaction behind a pooler: ./session-settings.ts) and run every transaction
 * read-only. On its own that is a guard against mistakes, not a boundary (a
 * session may RESET ROLE); the boundary is a login of its own that is only a
 * member of this role — LEASEBOARD_READER_DATABASE_URL, as the demo and CI
 * use (./roles.ts `ensureLoginRoles`).
 */
export const READER_ROLE = 'leaseboard_reader';
