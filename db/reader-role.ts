/**
 * Least privilege for the status service's reads.
 *
 * The migrator (./migrate.ts) sets up a NOLOGIN role `leaseboard_reader`
 * with SELECT on every table of the schema — now and later (default
 * privileges, so day partitions created later are readable too) — and makes
 * the migrating user a member, WHERE IT MAY create roles. Read pools
 * (./pool.ts `readOnly`) act as that role from the connection's start
 * (startup option `role`) and run every transaction read-only.
 *
 * Guarantees: idempotent and safe when several databases of one cluster
 * migrate at once (roles are cluster-wide); without the right to create roles
 * it changes nothing and says so — reads are then still read-only
 * transactions. Not guaranteed: a security boundary against SQL injection
 * (a session may RESET ROLE); for that, give the status service a login role
 * of its own (LEASEBOARD_READER_DATABASE_URL).
 */
import type pg from 'pg';

export const READER_ROLE = 'leaseboard_reader';

export type ReaderRoleOutcome = { kind: 'ready' } | { kind: 'not_permitted' };

export async function ensureReaderRole(client: pg.Client): Promise<ReaderRoleOutcome> {
  const { rows } = await client.query<{ may: boolean }>('SELECT rolsuper OR rolcreaterole AS may FROM pg_roles WHERE rolname = current_user');
  if (!rows[0]?.may) return { kind: 'not_permitted' };
  await client.query(`DO $$ BEGIN
      IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${READER_ROLE}') THEN CREATE ROLE ${READER_ROLE} NOLOGIN; END IF;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; -- another database of this cluster created it first
    END $$`);
  await client.query(`GRANT USAGE ON SCHEMA public TO ${READER_ROLE}`);
  await client.query(`GRANT SELECT ON ALL TABLES IN SCHEMA public TO ${READER_ROLE}`);
  await client.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT ON TABLES TO ${READER_ROLE}`);
  const member = await client.query<{ member: boolean }>(`SELECT pg_has_role(current_user, '${READER_ROLE}', 'MEMBER') AS member`);
  if (!member.rows[0]?.member) await client.query(`GRANT ${READER_ROLE} TO CURRENT_USER`);
  return { kind: 'ready' };
}
