/**
 * Least privilege in the database: a role per kind of work, and login roles
 * for them, so no process but the migrator holds more than its work needs.
 *
 * | group role (NOLOGIN) | who | may |
 * |---|---|---|
 * | (the migrator: DATABASE_URL's user) | `db:migrate`, the demo's setup | owns everything; the only one that may change or delete an audit row |
 * | `leaseboard_scheduler` | schedulers, the dashboard's hosted jobs, the report ingest | read everything but sessions and audits; write the protocol's and the jobs' tables; of report tokens, read them and stamp `last_used_at` only; never an intent, a mode or an audit (invariant 9, by privilege) |
 * | `leaseboard_operator` | operator actions (lib/actions, LEASEBOARD_ACTIONS_DATABASE_URL) | read; write intents, modes and sessions; mint and revoke report tokens; append to the audit trails |
 * | `leaseboard_reader` | status reads (LEASEBOARD_READER_DATABASE_URL) | read, nothing else (never sessions or report tokens) |
 *
 * Nobody but the owner may CREATE in the `public` schema (revoked from PUBLIC
 * where Leaseboard may create roles).
 *
 * UPDATE, DELETE and TRUNCATE on the audit tables (AUDIT_TABLES) are granted
 * to nobody, so only their owner — the migrator — can change a row; a
 * scheduler's or the dashboard's credentials cannot rewrite history. The
 * pruner's partition round runs as its definer (migration
 * pruner_runs_as_definer), after its own fence check; the replication
 * state (standby counts and lag) is read through a definer function that
 * answers aggregates only (migration replication_state), so the reader needs
 * no pg_monitor. The failover
 * generation's base (`leaseboard_generation_base`) is the migrator's alone: a
 * lowered base could let an epoch be granted twice (migration failover_generation).
 *
 * Guarantees
 * - `ensureRoles` is idempotent and safe when migrators of several databases
 *   of one cluster run at once (roles are cluster-wide: a role another
 *   migrator created first is taken as it is; privileges are per database).
 *   Without the right to create roles it creates none, says so, and still
 *   revokes what it may.
 * - `ensureLoginRoles` makes one LOGIN role per kind for ONE database, named
 *   after it (`loginRoleName`), each with a fresh random password every call
 *   (never a constant: a test or demo run gets its own), sent as a SCRAM-SHA-256
 *   verifier computed here (./scram.ts: the password itself never reaches a
 *   statement the server could log), member of its group;
 *   `dropLoginRoles` removes them.
 * Not guaranteed: isolation between several Leaseboard databases of one
 *   cluster — the group roles, and so their members, hold privileges in each
 *   (run one deployment per cluster, or restrict CONNECT per database).
 */
import { createHash, randomBytes } from 'node:crypto';
import type pg from 'pg';
import { READER_ROLE } from './reader-role';
import { scramSha256Verifier } from './scram';
import { databaseOf, withCredentials } from './url';

export const ROLES = { reader: READER_ROLE, scheduler: 'leaseboard_scheduler', operator: 'leaseboard_operator' } as const;
export type RoleKind = keyof typeof ROLES;

/** Append-only: INSERT for the operator role, SELECT for readers; UPDATE, DELETE, TRUNCATE for nobody but the owner. */
export const AUDIT_TABLES = [
  'intent_audit',
  'alert_mode_audit',
  'fault_drill_audit',
  'report_token_audit',
  'label_audit',
  'maintenance_audit',
  'team_owner_audit',
  'service_token_audit',
] as const;
/** Operator intent and settings: only people (the operator role) write them; automation only reads. */
const OPERATOR_TABLES = ['scheduler_intents', 'alert_modes', 'label_overrides', 'maintenance_windows', 'team_owners'] as const;
/** Closed maintenance windows are deleted by the operator's next create (their bound; history stays in maintenance_audit). */
const OPERATOR_DELETES = ['maintenance_windows'] as const;
const SESSIONS_TABLE = 'operator_sessions';
/** Report credentials (lib/ingest): operators mint and revoke them; the ingest (scheduler role) checks them and stamps their use. */
const REPORT_TOKENS_TABLE = 'report_tokens';
/** Service tokens (lib/auth/service-tokens.ts): admins make and revoke them and the dashboard checks them, all as the operator role. */
const SERVICE_TOKENS_TABLE = 'service_tokens';
/** "Run now" requests (lib/actions/run-now.ts): operators append them (each its own audit); a holder only marks one taken. */
const RUN_REQUESTS_TABLE = 'run_requests';

export type RolesOutcome = { kind: 'ready' } | { kind: 'not_permitted' };

const list = (tables: readonly string[]) => tables.map((table) => `"${table}"`).join(', ');

/** Creates a NOLOGIN role unless it exists; another database's migrator creating it at the same moment is fine. */
async function createGroup(client: pg.ClientBase, role: string): Promise<void> {
  await client.query(`DO $$ BEGIN
      IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${role}') THEN CREATE ROLE ${role} NOLOGIN; END IF;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; -- another database of this cluster created it first
    END $$`);
}

export async function ensureRoles(client: pg.ClientBase): Promise<RolesOutcome> {
  // What nobody but the owner may do, whatever else is possible here.
  await client.query(`REVOKE UPDATE, DELETE, TRUNCATE ON ${list(AUDIT_TABLES)} FROM PUBLIC`);
  const { rows } = await client.query<{ may: boolean; superuser: boolean }>(
    'SELECT rolsuper OR rolcreaterole AS may, rolsuper AS superuser FROM pg_roles WHERE rolname = current_user',
  );
  if (!rows[0]?.may) return { kind: 'not_permitted' };
  for (const role of Object.values(ROLES)) await createGroup(client, role);
  const { reader, scheduler, operator } = ROLES;
  const statements = [
    // Nobody but the owner creates objects in the schema (PostgreSQL 14 and older, and clusters upgraded from them, let PUBLIC):
    // a planted function or table shadowing ours is how a login would raise itself.
    `REVOKE CREATE ON SCHEMA public FROM PUBLIC`,
    `REVOKE CREATE ON SCHEMA public FROM ${reader}, ${scheduler}, ${operator}`,
    `GRANT USAGE ON SCHEMA public TO ${reader}, ${scheduler}, ${operator}`,
    // Reads: everything, now and later.
    `GRANT SELECT ON ALL TABLES IN SCHEMA public TO ${reader}, ${operator}`,
    `ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT ON TABLES TO ${reader}, ${operator}`,
    // Schedulers: the protocol's tables and every job's, now and later (day partitions, a job's own tables) ...
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${scheduler}`,
    `ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${scheduler}`,
    `GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${scheduler}, ${operator}`,
    `ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO ${scheduler}, ${operator}`,
    // ... but never people's choices, their sessions or the audit trails.
    `REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON ${list(OPERATOR_TABLES)} FROM ${scheduler}`,
    `REVOKE ALL ON ${list([...AUDIT_TABLES, SESSIONS_TABLE])} FROM ${scheduler}`,
    // Operators: their choices and sessions; the audit trails, append-only.
    `GRANT INSERT, UPDATE ON ${list(OPERATOR_TABLES)} TO ${operator}`,
    `GRANT DELETE ON ${list(OPERATOR_DELETES)} TO ${operator}`,
    `GRANT INSERT, UPDATE, DELETE ON ${SESSIONS_TABLE} TO ${operator}`,
    `GRANT INSERT ON ${list(AUDIT_TABLES)} TO ${operator}`,
    `REVOKE UPDATE, DELETE, TRUNCATE ON ${list(AUDIT_TABLES)} FROM ${reader}, ${scheduler}, ${operator}`,
    // The failover generation's base only ever goes up, by the migrator (leaseboard_align_generation).
    `REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON leaseboard_generation_base FROM ${scheduler}, ${operator}`,
    `REVOKE ALL ON ${SESSIONS_TABLE} FROM ${reader}`,
    // The ingest checks a token (SELECT) and stamps its use (last_used_at): never its secret, owner or id.
    `REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON ${REPORT_TOKENS_TABLE} FROM ${scheduler}`,
    `GRANT UPDATE (last_used_at) ON ${REPORT_TOKENS_TABLE} TO ${scheduler}`,
    `GRANT INSERT, DELETE ON ${REPORT_TOKENS_TABLE} TO ${operator}`,
    `REVOKE ALL ON ${REPORT_TOKENS_TABLE} FROM ${reader}`,
    // Service tokens: the dashboard's operator connections make, check, stamp and revoke them; nobody else sees them.
    `REVOKE ALL ON ${SERVICE_TOKENS_TABLE} FROM ${reader}, ${scheduler}`,
    `GRANT INSERT, UPDATE, DELETE ON ${SERVICE_TOKENS_TABLE} TO ${operator}`,
    `REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON ${RUN_REQUESTS_TABLE} FROM ${scheduler}`,
    `GRANT UPDATE (taken_at, taken_epoch, occurrence) ON ${RUN_REQUESTS_TABLE} TO ${scheduler}`,
    `GRANT INSERT ON ${RUN_REQUESTS_TABLE} TO ${operator}`,
    // The pruner's partition round runs as its definer (migration pruner_runs_as_definer): schedulers only.
    `REVOKE EXECUTE ON FUNCTION leaseboard_retention_partitions(text, bigint, timestamptz, interval, interval, interval, integer) FROM PUBLIC`,
    `GRANT EXECUTE ON FUNCTION leaseboard_retention_partitions(text, bigint, timestamptz, interval, interval, interval, integer) TO ${scheduler}`,
    // What protects the authority, in aggregates, as its definer sees pg_stat_replication (migration replication_state): any role may ask.
    `GRANT EXECUTE ON FUNCTION leaseboard_replication_state() TO ${reader}, ${scheduler}, ${operator}`,
  ];
  for (const statement of statements) await client.query(statement);
  // The status service may read as the reader role over the migrator's own login (SET ROLE at connect): a superuser needs no membership.
  if (!rows[0].superuser) {
    const member = await client.query<{ member: boolean }>(`SELECT pg_has_role(current_user, '${reader}', 'MEMBER') AS member`);
    if (!member.rows[0]?.member) await client.query(`GRANT ${reader} TO CURRENT_USER`);
  }
  return { kind: 'ready' };
}

/** `lb_<kind>_<database>`, lower case, within PostgreSQL's 63 characters (a hash stands in for a long or unusual name). */
export function loginRoleName(kind: RoleKind, database: string): string {
  const plain = `lb_${kind}_${database}`;
  if (/^[a-z_][a-z0-9_]{0,62}$/.test(plain)) return plain;
  return `lb_${kind}_${createHash('sha256').update(database).digest('hex').slice(0, 16)}`;
}

export type LoginUrls = Record<RoleKind, string>;

/**
 * One LOGIN role per kind for the database `adminUrl` names, each with a
 * fresh password; returns their connection URLs (the same nodes, database and
 * parameters: a libpq host list included).
 * Needs the right to create roles, and `ensureRoles` done in that database.
 */
export async function ensureLoginRoles(client: pg.ClientBase, adminUrl: string): Promise<LoginUrls> {
  const database = databaseOf(adminUrl) ?? 'postgres';
  const urls = {} as LoginUrls;
  for (const kind of Object.keys(ROLES) as RoleKind[]) {
    const name = loginRoleName(kind, database);
    const password = randomBytes(24).toString('base64url');
    // The server gets a verifier made here, never the password: a statement may be logged (log_statement, an error's statement).
    const literal = client.escapeLiteral(scramSha256Verifier(password));
    await client.query(`DO $$ BEGIN
        IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${name}') THEN CREATE ROLE ${name} LOGIN; END IF;
      EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
      END $$`);
    await client.query(`ALTER ROLE ${name} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD ${literal}`);
    await client.query(`GRANT ${ROLES[kind]} TO ${name}`);
    urls[kind] = withCredentials(adminUrl, name, password);
  }
  return urls;
}

/** Removes the login roles of `database` (after the database itself is gone, or its privileges revoked). */
export async function dropLoginRoles(client: pg.ClientBase, database: string): Promise<void> {
  for (const kind of Object.keys(ROLES) as RoleKind[]) await client.query(`DROP ROLE IF EXISTS ${loginRoleName(kind, database)}`);
}
