/**
 * Operator actions and sessions over HTTP, framework-free: `Request` in,
 * `Response` out, dependencies injected. app/api binds them to routes.
 *
 * Guarantees
 * - Every write is gated by ../auth/guard.ts (same origin, then the operator
 *   role) BEFORE its body is read or anything is written: a refused request
 *   changes nothing.
 * - Bad input → 400 `{ error: { code, message } }` naming the field; an
 *   unknown scheduler → 404; a state that moved since the operator looked →
 *   409; nothing a client sends yields a 5xx or a stack trace.
 * - The response reports what the database committed (from → to, by, at),
 *   so a UI shows an action as done only once it is.
 */
import type pg from 'pg';
import type { z } from 'zod';
import { AlertModeRequestSchema, IntentRequestSchema, SignInRequestSchema } from '../api/schemas';
import type { AlertModeResponse, IntentResponse, SessionResponse } from '../api/types';
import { isAlertName, isSchedulerAlert } from '../alerts';
import { changeAlertMode } from '../alerts/store/modes';
import type { AuthConfig } from '../auth/config';
import { checkSameOrigin } from '../auth/csrf';
import { authorizeWrite, type WriteRefusal } from '../auth/guard';
import { resolveIdentity } from '../auth/identity';
import { clearedSessionCookie, issueSession, sessionCookie, tokenMatches } from '../auth/session';
import { changeIntent } from '../lease';
import { guarded, json } from '../http/respond';
import { checkName } from '../http/params';

export interface ActionDeps {
  auth: AuthConfig;
  /** Writer connections (the status reads' pool is read-only). */
  writer: Pick<pg.Pool, 'connect'>;
  /** Wall clock, for session expiry only; every stored time is the database's. */
  nowMs: () => number;
  /** The dashboard's base path ('' at the root): the session cookie's path. */
  basePath: string;
}

const BODY_MAX_BYTES = 4_096;

const fail = (status: number, code: string, message: string) => json({ error: { code, message } }, status);
const refuse = (refusal: WriteRefusal) => fail(refusal.status, refusal.code, refusal.message);

async function readBody<S extends z.ZodType>(request: Request, schema: S): Promise<{ ok: true; value: z.infer<S> } | { ok: false; response: Response }> {
  if (!(request.headers.get('content-type') ?? '').toLowerCase().startsWith('application/json')) {
    return { ok: false, response: fail(400, 'invalid_body', 'send a JSON body (Content-Type: application/json)') };
  }
  const text = await request.text();
  if (Buffer.byteLength(text) > BODY_MAX_BYTES) return { ok: false, response: fail(400, 'invalid_body', `body larger than ${BODY_MAX_BYTES} bytes`) };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, response: fail(400, 'invalid_body', 'body is not valid JSON') };
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const message = issue ? (issue.message.includes(':') ? issue.message : `${issue.path.join('.') || 'body'}: ${issue.message}`) : 'invalid body';
    return { ok: false, response: fail(400, 'invalid_body', message) };
  }
  return { ok: true, value: parsed.data };
}

const stateOf = (disabled: boolean) => (disabled ? 'disabled' : 'enabled');

/** POST /api/v1/schedulers/{name}/intent — disable or enable, with a reason. */
export function intentRoute(request: Request, rawName: string, deps: ActionDeps): Promise<Response> {
  return guarded('intent', async () => {
    const gate = await authorizeWrite(deps.auth, request.headers, deps.nowMs());
    if (!gate.ok) return refuse(gate.refusal);
    const name = checkName(rawName);
    if (!name.ok) return fail(400, name.error.code, name.error.message);
    const body = await readBody(request, IntentRequestSchema);
    if (!body.ok) return body.response;
    const { disabled, reason, expectDisabled } = body.value;
    const result = await changeIntent(deps.writer, name.value, { disabled, by: gate.identity.who, reason }, { expectDisabled, mustExist: true });
    switch (result.kind) {
      case 'changed': {
        const answer: IntentResponse = {
          scheduler: name.value,
          from: stateOf(result.from),
          to: stateOf(result.intent.disabled),
          intent: { ...result.intent, at: result.intent.at.toISOString() },
        };
        return json(answer);
      }
      case 'unchanged':
        return fail(409, 'no_change', `${name.value} is already ${stateOf(result.current.disabled)} (by ${result.current.by}: ${result.current.reason})`);
      case 'conflict':
        return fail(409, 'conflict', `${name.value} is now ${stateOf(result.current?.disabled ?? false)}; look again before you act`);
      case 'unknown_scheduler':
        return fail(404, 'unknown_scheduler', `no scheduler named ${name.value}`);
      default: {
        const unreachable: never = result;
        throw new Error(`unexpected intent result ${JSON.stringify(unreachable)}`);
      }
    }
  });
}

const RULE_NAME = /^[A-Za-z]{1,64}$/;

/** PUT /api/v1/alerts/rules/{rule}/mode — set a rule's rollout mode, or one scheduler's override, with a reason. */
export function alertModeRoute(request: Request, rawRule: string, deps: ActionDeps): Promise<Response> {
  return guarded('alert-mode', async () => {
    const gate = await authorizeWrite(deps.auth, request.headers, deps.nowMs());
    if (!gate.ok) return refuse(gate.refusal);
    if (!RULE_NAME.test(rawRule)) return fail(400, 'invalid_name', 'rule: an alert name such as SchedulerStalled');
    if (!isAlertName(rawRule)) return fail(404, 'unknown_rule', `no alert rule named ${rawRule}`);
    const rule = rawRule;
    const body = await readBody(request, AlertModeRequestSchema);
    if (!body.ok) return body.response;
    const { mode, reason, expectMode } = body.value;
    const scheduler = body.value.scheduler ?? null;
    if (scheduler !== null) {
      const name = checkName(scheduler);
      if (!name.ok) return fail(400, 'invalid_body', `scheduler: ${name.error.message}`);
      if (!isSchedulerAlert(rule)) return fail(400, 'invalid_body', `scheduler: ${rule} is about the status service itself and has no per-scheduler mode`);
    }
    const result = await changeAlertMode(deps.writer, { rule, scheduler, mode, by: gate.identity.who, reason }, { expectMode, mustExist: true });
    const target = scheduler === null ? rule : `${rule} on ${scheduler}`;
    switch (result.kind) {
      case 'changed': {
        const { mode: to, by, reason: why, at } = result.setting;
        const answer: AlertModeResponse = { rule, scheduler, from: result.from, to, setting: { mode: to, by, reason: why, at } };
        return json(answer);
      }
      case 'unchanged':
        return fail(409, 'no_change', `${target} is already ${result.current.mode} (by ${result.current.by}: ${result.current.reason})`);
      case 'conflict':
        return fail(409, 'conflict', `${target} is now ${result.effective}; look again before you act`);
      case 'unknown_scheduler':
        return fail(404, 'unknown_scheduler', `no scheduler named ${scheduler}`);
      case 'no_override':
        return fail(400, 'invalid_body', `scheduler: ${rule} has no per-scheduler mode`);
      default: {
        const unreachable: never = result;
        throw new Error(`unexpected mode result ${JSON.stringify(unreachable)}`);
      }
    }
  });
}

async function sessionOf(request: Request, deps: ActionDeps): Promise<SessionResponse> {
  const identity = await resolveIdentity(deps.auth, request.headers, deps.nowMs());
  return { role: identity.role, who: identity.who, via: identity.via, localSignIn: deps.auth.operatorToken !== null };
}

/** GET /api/v1/session — who you are here (never an error). */
export function sessionRoute(request: Request, deps: ActionDeps): Promise<Response> {
  return guarded('session', async () => json(await sessionOf(request, deps)));
}

function cookieOptions(request: Request, deps: ActionDeps) {
  const forwardedProto = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim();
  return { secure: new URL(request.url).protocol === 'https:' || forwardedProto === 'https', path: deps.basePath || '/' };
}

/** POST /api/v1/session — exchange the local operator token for a session cookie. */
export function signInRoute(request: Request, deps: ActionDeps): Promise<Response> {
  return guarded('sign-in', async () => {
    const origin = checkSameOrigin(deps.auth, request.headers);
    if (!origin.ok) return fail(403, 'cross_site', origin.message);
    if (deps.auth.operatorToken === null) return fail(404, 'not_found', 'local sign-in is off (no LEASEBOARD_OPERATOR_TOKEN)');
    const body = await readBody(request, SignInRequestSchema);
    if (!body.ok) return body.response;
    if (!tokenMatches(deps.auth, body.value.token)) return fail(403, 'forbidden', 'that is not the operator token');
    const issued = await issueSession(deps.auth, body.value.name, deps.nowMs());
    const answer: SessionResponse = { role: 'operator', who: issued.session.who, via: 'session', localSignIn: true };
    return json(answer, 200, { 'set-cookie': sessionCookie(deps.auth, issued.value, cookieOptions(request, deps)) });
  });
}

/** DELETE /api/v1/session — sign out (clears the cookie). */
export function signOutRoute(request: Request, deps: ActionDeps): Promise<Response> {
  return guarded('sign-out', async () => {
    const origin = checkSameOrigin(deps.auth, request.headers);
    if (!origin.ok) return fail(403, 'cross_site', origin.message);
    const answer: SessionResponse = { role: 'viewer', who: null, via: 'anonymous', localSignIn: deps.auth.operatorToken !== null };
    return json(answer, 200, { 'set-cookie': clearedSessionCookie(cookieOptions(request, deps)) });
  });
}
