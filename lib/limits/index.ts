/**
 * Limits of what an operator writes (a reason, a name), in a module without
 * dependencies at the bottom of the layers: the contract (lib/api/schemas.ts)
 * states them, the writers of the audit trails enforce them
 * (lib/lease/intent.ts, lib/alerts/store/modes.ts), and the browser imports
 * them (zod stays out of the client bundle — its eval probe would trip the
 * page's CSP). Here, below all three, so none reaches up for them.
 */

/** Longest reason an operator can give for an action. */
export const REASON_MAX_LENGTH = 200;

/** Longest name an operator can sign in under (recorded as `by`). */
export const OPERATOR_NAME_MAX_LENGTH = 64;

/**
 * How an audited operator's identity was established: `sso` — the SSO proxy's header, from a trusted
 * address; `token` — the local operator token, with a name typed at sign-in; `cli` — a command run
 * by someone with database access (`npm run intent`, `npm run alerts -- mode`); `service_token` — a
 * service token an admin made (lib/auth/service-tokens.ts), `by` being its name. The audit tables'
 * CHECK (db/schema.sql, last set by migration 0038_service_tokens) and db/schema.ts list the same
 * (lib/api/limits.unit.test.ts compares them).
 */
export const IDENTIFIED_BY = ['sso', 'token', 'cli', 'service_token'] as const;
export type IdentifiedBy = (typeof IDENTIFIED_BY)[number];
