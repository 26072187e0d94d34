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
