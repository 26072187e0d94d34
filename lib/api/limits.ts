/**
 * Limits of the operator-action contract, in a module without dependencies:
 * the browser imports it (zod stays out of the client bundle — its eval probe
 * would trip the page's CSP), and lib/lease/intent.ts enforces the same values.
 */

/** Longest reason an operator can give for an action. */
export const REASON_MAX_LENGTH = 200;

/** Longest name an operator can sign in under (recorded as `by`). */
export const OPERATOR_NAME_MAX_LENGTH = 64;
