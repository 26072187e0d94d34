/**
 * The v1 contract of operator actions, sessions and the audit trail, as zod
 * schemas (requests are validated with them; responses are typed by them).
 * Times are ISO-8601 UTC strings from the database clock.
 */
import { z } from 'zod';
import { OPERATOR_NAME_MAX_LENGTH, REASON_MAX_LENGTH } from './limits';

const reason = z
  .string({ error: 'reason: required — say why' })
  .trim()
  .min(1, 'reason: required — say why')
  .max(REASON_MAX_LENGTH, `reason: at most ${REASON_MAX_LENGTH} characters`);

/** POST /api/v1/schedulers/{name}/intent */
export const intentRequestSchema = z.strictObject({
  disabled: z.boolean({ error: 'disabled: true to disable, false to enable' }),
  reason,
  /** The state the operator saw when confirming; the change is refused (409) if it is no longer current. */
  expectDisabled: z.boolean().optional(),
});
export type IntentRequest = z.infer<typeof intentRequestSchema>;

export const intentSchema = z.object({ disabled: z.boolean(), by: z.string(), reason: z.string(), at: z.string() });

export const intentResponseSchema = z.object({
  scheduler: z.string(),
  from: z.enum(['enabled', 'disabled']),
  to: z.enum(['enabled', 'disabled']),
  intent: intentSchema,
});
export type IntentResponse = z.infer<typeof intentResponseSchema>;

/** One audited operator action: who, what, from → to, why, when. */
export const auditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  who: z.string(),
  action: z.enum(['scheduler.disable', 'scheduler.enable']),
  /** The scheduler (or rule) acted on. */
  target: z.string(),
  from: z.string(),
  to: z.string(),
  reason: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** GET /api/v1/audit[?scheduler=NAME&limit=N] — newest first. */
export const auditResponseSchema = z.object({ entries: z.array(auditEntrySchema) });
export type AuditResponse = z.infer<typeof auditResponseSchema>;

/** GET /api/v1/session — who the dashboard thinks you are. */
export const sessionResponseSchema = z.object({
  role: z.enum(['viewer', 'operator']),
  who: z.string().nullable(),
  via: z.enum(['anonymous', 'proxy', 'session']),
  /** Whether signing in with the local operator token is possible here. */
  localSignIn: z.boolean(),
});
export type SessionResponse = z.infer<typeof sessionResponseSchema>;

/** POST /api/v1/session — exchange the operator token for a session cookie. */
export const signInRequestSchema = z.strictObject({
  token: z.string({ error: 'token: required' }).min(1, 'token: required').max(512, 'token: too long'),
  name: z
    .string({ error: 'name: who you are, for the audit trail' })
    .trim()
    .min(1, 'name: who you are, for the audit trail')
    .max(OPERATOR_NAME_MAX_LENGTH, `name: at most ${OPERATOR_NAME_MAX_LENGTH} characters`)
    .regex(/^[^\u0000-\u001f\u007f]+$/, 'name: no control characters'),
});
export type SignInRequest = z.infer<typeof signInRequestSchema>;
