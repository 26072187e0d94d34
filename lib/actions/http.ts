/**
 * Operator actions and sessions over HTTP, framework-free: `Request` in,
 * `Response` out, dependencies injected. app/api binds them to routes.
 *
 * Guarantees
 * - Every write is gated by ../auth/guard.ts (same origin, then the operator
 *   role, then what a limited identity may do: an intent needs the `intents`
 *   scope over that scheduler; labels and alert modes an unlimited operator)
 *   BEFORE its body is read or anything is written: a refused request
 *   changes nothing.
 * - Bad input → 400 `{ error: { code, message } }` naming the field; an
 *   unknown scheduler → 404; a state that moved since the operator looked →
 *   409; nothing a client sends yields a 5xx or a stack trace.
 * - The response reports what the database committed (from → to, by, at),
 *   so a UI shows an action as done only once it is.
 */
import type pg from 'pg';
import { AlertModeRequestSchema, IntentRequestSchema, LabelsRequestSchema, RunNowRequestSchema } from '../api/schemas';
import type { AlertModeResponse, IntentResponse, LabelsResponse, RunNowResponse, RunRequestView } from '../api/types';
import { formatLabels } from '../limits/labels';
import { changeLabels } from './labels';
import { requestRunNow, type RunRequest } from './run-now';
import { isAlertName, isSchedulerAlert } from '../alerts';
import { changeAlertMode } from '../alerts/store/modes';
import { authorizeScheduler, authorizeWrite } from '../auth/guard';
import { type AuthSources, established } from '../auth/identity';
import { changeIntent } from '../lease';
import { guarded, json } from '../http/respond';
import { checkName } from '../http/params';
import { BODY_LIMITS, fail, readBody, refuse } from './respond';
import type { SignInLimiter } from './sign-in-limit';

export interface ActionDeps extends AuthSources {
  /** Writer connections (the status reads' pool is read-only). */
  writer: Pick<pg.Pool, 'connect' | 'query'>;
  /** Wall clock, for session expiry only; every stored time is the database's. */
  nowMs: () => number;
  /** The dashboard's base path ('' at the root): the session cookie's path. */
  basePath: string;
  /** Failed sign-ins per client (./sign-in-limit.ts). */
  signIns: SignInLimiter;
  /** How long a request body may take to arrive (408 past it); default lib/http/body.ts DEFAULT_BODY_DEADLINE_MS. */
  bodyDeadlineMs?: number;
}

const stateOf = (disabled: boolean) => (disabled ? 'disabled' : 'enabled');

/** POST /api/v1/schedulers/{name}/intent — disable or enable, with a reason. */
export function intentRoute(request: Request, rawName: string, deps: ActionDeps): Promise<Response> {
  return guarded('intent', async () => {
    const gate = await authorizeWrite(deps, request.headers, deps.nowMs(), 'intents');
    if (!gate.ok) return refuse(gate.refusal);
    const name = checkName(rawName);
    if (!name.ok) return fail(400, name.error.code, name.error.message);
    const outside = await authorizeScheduler(deps.writer, gate.identity, name.value);
    if (outside !== null) return refuse(outside);
    const body = await readBody(request, IntentRequestSchema, { maxBytes: BODY_LIMITS.intent, deadlineMs: deps.bodyDeadlineMs });
    if (!body.ok) return body.response;
    const { disabled, reason, expectDisabled } = body.value;
    const result = await changeIntent(
      deps.writer,
      name.value,
      { disabled, by: gate.identity.who, reason },
      { expectDisabled, mustExist: true, identifiedBy: established(gate.identity) },
    );
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

const shownLabels = (labels: Readonly<Record<string, string>> | null) =>
  labels === null ? "the registration's labels" : Object.keys(labels).length === 0 ? 'no labels' : formatLabels(labels);

/** PUT /api/v1/schedulers/{name}/labels — set a scheduler's labels (or hand them back to its registration), with a reason. */
export function labelsRoute(request: Request, rawName: string, deps: ActionDeps): Promise<Response> {
  return guarded('labels', async () => {
    const gate = await authorizeWrite(deps, request.headers, deps.nowMs());
    if (!gate.ok) return refuse(gate.refusal);
    const name = checkName(rawName);
    if (!name.ok) return fail(400, name.error.code, name.error.message);
    const body = await readBody(request, LabelsRequestSchema, { maxBytes: BODY_LIMITS.labels, deadlineMs: deps.bodyDeadlineMs });
    if (!body.ok) return body.response;
    const { labels, reason, expectLabels } = body.value;
    const result = await changeLabels(
      deps.writer,
      name.value,
      { labels, by: gate.identity.who, reason },
      { identifiedBy: established(gate.identity), ...(expectLabels === undefined ? {} : { expectLabels }) },
    );
    switch (result.kind) {
      case 'changed': {
        const answer: LabelsResponse = {
          scheduler: name.value,
          from: result.from,
          to: result.to,
          labels: result.labels,
          by: gate.identity.who,
          reason,
          at: result.at.toISOString(),
        };
        return json(answer);
      }
      case 'unchanged':
        return fail(409, 'no_change', `${name.value} already carries ${shownLabels(result.current)}`);
      case 'conflict':
        return fail(409, 'conflict', `${name.value} now carries ${shownLabels(result.current)}; look again before you act`);
      case 'invalid':
        return fail(400, 'invalid_body', result.message);
      case 'unknown_scheduler':
        return fail(404, 'unknown_scheduler', `no scheduler named ${name.value}`);
      default: {
        const unreachable: never = result;
        throw new Error(`unexpected labels result ${JSON.stringify(unreachable)}`);
      }
    }
  });
}

const RULE_NAME = /^[A-Za-z]{1,64}$/;

/** PUT /api/v1/alerts/rules/{rule}/mode — set a rule's rollout mode, or one scheduler's override, with a reason. */
export function alertModeRoute(request: Request, rawRule: string, deps: ActionDeps): Promise<Response> {
  return guarded('alert-mode', async () => {
    const gate = await authorizeWrite(deps, request.headers, deps.nowMs());
    if (!gate.ok) return refuse(gate.refusal);
    if (!RULE_NAME.test(rawRule)) return fail(400, 'invalid_name', 'rule: an alert name such as SchedulerStalled');
    if (!isAlertName(rawRule)) return fail(404, 'unknown_rule', `no alert rule named ${rawRule}`);
    const rule = rawRule;
    const body = await readBody(request, AlertModeRequestSchema, { maxBytes: BODY_LIMITS.alertMode, deadlineMs: deps.bodyDeadlineMs });
    if (!body.ok) return body.response;
    const { mode, reason, expectMode } = body.value;
    const scheduler = body.value.scheduler ?? null;
    if (scheduler !== null) {
      const name = checkName(scheduler);
      if (!name.ok) return fail(400, 'invalid_body', `scheduler: ${name.error.message}`);
      if (!isSchedulerAlert(rule)) return fail(400, 'invalid_body', `scheduler: ${rule} is about the status service itself and has no per-scheduler mode`);
    }
    const result = await changeAlertMode(
      deps.writer,
      { rule, scheduler, mode, by: gate.identity.who, reason },
      { expectMode, mustExist: true, identifiedBy: established(gate.identity) },
    );
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

function requestView(r: RunRequest): RunRequestView {
  return {
    ...r,
    requestedAt: r.requestedAt.toISOString(),
    expiresAt: r.expiresAt.toISOString(),
    takenAt: r.takenAt === null ? null : r.takenAt.toISOString(),
  };
}

/** POST /api/v1/schedulers/{name}/run-now — ask the current holder to start an occurrence now, with a reason (./run-now.ts). */
export function runNowRoute(request: Request, rawName: string, deps: ActionDeps): Promise<Response> {
  return guarded('run-now', async () => {
    const gate = await authorizeWrite(deps, request.headers, deps.nowMs());
    if (!gate.ok) return refuse(gate.refusal);
    const name = checkName(rawName);
    if (!name.ok) return fail(400, name.error.code, name.error.message);
    const body = await readBody(request, RunNowRequestSchema, { maxBytes: BODY_LIMITS.runNow, deadlineMs: deps.bodyDeadlineMs });
    if (!body.ok) return body.response;
    const result = await requestRunNow(deps.writer, name.value, { by: gate.identity.who, reason: body.value.reason, identifiedBy: established(gate.identity) });
    switch (result.kind) {
      case 'requested': {
        const answer: RunNowResponse = { scheduler: name.value, request: requestView(result.request) };
        return json(answer, 202);
      }
      case 'unknown_scheduler':
        return fail(404, 'unknown_scheduler', `no scheduler named ${name.value}`);
      case 'disabled':
        return fail(409, 'scheduler_disabled', `${name.value} is disabled by ${result.by} (${result.reason}): enable it before asking it to run`);
      case 'no_holder':
        return fail(409, 'no_holder', `nobody holds ${name.value} now: there is no holder to ask, and nothing was queued`);
      case 'already_pending':
        return fail(
          409,
          'run_pending',
          `${name.value} already has a run-now request pending (by ${result.request.by}, until ${result.request.expiresAt.toISOString()})`,
        );
      default: {
        const unreachable: never = result;
        throw new Error(`unexpected run-now result ${JSON.stringify(unreachable)}`);
      }
    }
  });
}
