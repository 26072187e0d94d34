/**
 * Fleet-wide operator actions over HTTP, framework-free like ./http.ts:
 * maintenance windows (create, edit, cancel), disable/enable by label
 * selector, and a team's owner details. app/api binds them to routes.
 *
 * Guarantees: as ./http.ts — every write gated (same origin, operator role)
 * before its body is read; bad input → 400 `{ error: { code, message } }`
 * naming the field, and nothing changed (a malformed selector, an end before
 * start, a window over 30 days, a selector that matches nothing); a state
 * that moved → 409; an unknown window → 404; the answer is what committed.
 */
import { BulkIntentRequestSchema, MaintenanceCancelRequestSchema, MaintenanceWindowRequestSchema, TeamOwnerRequestSchema } from '../api/schemas';
import type { BulkIntentResponse, MaintenanceChangeResponse, TeamOwnerResponse } from '../api/types';
import { type Authorization, authorizeWrite } from '../auth/guard';
import { established } from '../auth/identity';
import { changeIntentBySelector } from '../lease';
import { formatSelector, parseSelector } from '../limits/selector';
import { guarded, json } from '../http/respond';
import type { ActionDeps } from './http';
import { type Actor, cancelWindow, createWindow, editWindow, type WindowChangeResult, windowRefusal, windowSpecOf } from './maintenance';
import { setTeamOwner, TEAM_OWNERS_MAX } from './owners';
import { BODY_LIMITS, fail, readBody, refuse } from './respond';

const actorOf = (gate: Extract<Authorization, { ok: true }>, reason: string): Actor => ({
  by: gate.identity.who,
  reason,
  identifiedBy: established(gate.identity),
});

const WINDOW_ID = /^[1-9][0-9]{0,15}$/;

const WINDOW_REFUSED: Record<Exclude<WindowChangeResult['kind'], 'changed'>, [number, string]> = {
  invalid: [400, 'invalid_body'],
  too_many: [409, 'too_many_windows'],
  unknown_window: [404, 'unknown_window'],
  closed: [409, 'window_closed'],
};

function windowAnswer(result: WindowChangeResult): Response {
  if (result.kind === 'changed') {
    const answer: MaintenanceChangeResponse = { action: result.action, from: result.from, window: result.window };
    return json(answer, result.action === 'create' ? 201 : 200);
  }
  const [status, code] = WINDOW_REFUSED[result.kind];
  return fail(status, code, windowRefusal(result));
}

/** POST /api/v1/maintenance-windows — schedule a window, with a reason. */
export function createWindowRoute(request: Request, deps: ActionDeps): Promise<Response> {
  return guarded('maintenance-create', async () => {
    const gate = await authorizeWrite(deps, request.headers, deps.nowMs());
    if (!gate.ok) return refuse(gate.refusal);
    const body = await readBody(request, MaintenanceWindowRequestSchema, { maxBytes: BODY_LIMITS.maintenance, deadlineMs: deps.bodyDeadlineMs });
    if (!body.ok) return body.response;
    return windowAnswer(await createWindow(deps.writer, windowSpecOf(body.value), actorOf(gate, body.value.reason)));
  });
}

/** PUT /api/v1/maintenance-windows/{id} — replace a window that is scheduled or open, with a reason. */
export function editWindowRoute(request: Request, rawId: string, deps: ActionDeps): Promise<Response> {
  return guarded('maintenance-edit', async () => {
    const gate = await authorizeWrite(deps, request.headers, deps.nowMs());
    if (!gate.ok) return refuse(gate.refusal);
    if (!WINDOW_ID.test(rawId)) return fail(400, 'invalid_parameter', 'id: a window number');
    const body = await readBody(request, MaintenanceWindowRequestSchema, { maxBytes: BODY_LIMITS.maintenance, deadlineMs: deps.bodyDeadlineMs });
    if (!body.ok) return body.response;
    return windowAnswer(await editWindow(deps.writer, Number(rawId), windowSpecOf(body.value), actorOf(gate, body.value.reason)));
  });
}

/** DELETE /api/v1/maintenance-windows/{id} — cancel a window (it closes at once), with a reason. */
export function cancelWindowRoute(request: Request, rawId: string, deps: ActionDeps): Promise<Response> {
  return guarded('maintenance-cancel', async () => {
    const gate = await authorizeWrite(deps, request.headers, deps.nowMs());
    if (!gate.ok) return refuse(gate.refusal);
    if (!WINDOW_ID.test(rawId)) return fail(400, 'invalid_parameter', 'id: a window number');
    const body = await readBody(request, MaintenanceCancelRequestSchema, { maxBytes: BODY_LIMITS.intent, deadlineMs: deps.bodyDeadlineMs });
    if (!body.ok) return body.response;
    return windowAnswer(await cancelWindow(deps.writer, Number(rawId), actorOf(gate, body.value.reason)));
  });
}

const stateOf = (disabled: boolean) => (disabled ? 'disabled' : 'enabled');

/** POST /api/v1/bulk/intent — disable or enable every scheduler a selector matches, one reason for all. */
export function bulkIntentRoute(request: Request, deps: ActionDeps): Promise<Response> {
  return guarded('bulk-intent', async () => {
    const gate = await authorizeWrite(deps, request.headers, deps.nowMs());
    if (!gate.ok) return refuse(gate.refusal);
    const body = await readBody(request, BulkIntentRequestSchema, { maxBytes: BODY_LIMITS.bulkIntent, deadlineMs: deps.bodyDeadlineMs });
    if (!body.ok) return body.response;
    const parsed = parseSelector(body.value.selector);
    if (!parsed.ok) return fail(400, 'invalid_body', parsed.message);
    const selector = formatSelector(parsed.selector);
    const { disabled, reason } = body.value;
    const result = await changeIntentBySelector(deps.writer, { selector: parsed.selector, disabled, ...actorOf(gate, reason) });
    switch (result.kind) {
      case 'changed': {
        const answer: BulkIntentResponse = {
          selector,
          to: stateOf(disabled),
          changed: result.changed,
          unchanged: result.unchanged,
          by: gate.identity.who,
          at: result.at.toISOString(),
        };
        return json(answer);
      }
      case 'unchanged':
        return fail(409, 'no_change', `every scheduler matching ${selector} is already ${stateOf(disabled)} (${result.unchanged.length})`);
      case 'nothing_matched':
        return fail(400, 'nothing_matched', `selector ${selector} matches no scheduler; nothing changed`);
      default: {
        const unreachable: never = result;
        throw new Error(`unexpected bulk intent result ${JSON.stringify(unreachable)}`);
      }
    }
  });
}

/** PUT /api/v1/teams/{team}/owner — the contact and runbook of a team's schedulers' alerts, with a reason. */
export function teamOwnerRoute(request: Request, rawTeam: string, deps: ActionDeps): Promise<Response> {
  return guarded('team-owner', async () => {
    const gate = await authorizeWrite(deps, request.headers, deps.nowMs());
    if (!gate.ok) return refuse(gate.refusal);
    const body = await readBody(request, TeamOwnerRequestSchema, { maxBytes: BODY_LIMITS.teamOwner, deadlineMs: deps.bodyDeadlineMs });
    if (!body.ok) return body.response;
    const { contact, reason } = body.value;
    const result = await setTeamOwner(deps.writer, rawTeam, { contact, runbookUrl: body.value.runbookUrl ?? null, ...actorOf(gate, reason) });
    switch (result.kind) {
      case 'changed': {
        const answer: TeamOwnerResponse = { from: result.from, owner: result.owner };
        return json(answer);
      }
      case 'unchanged':
        return fail(409, 'no_change', `team ${rawTeam} already has these details (by ${result.current.by})`);
      case 'invalid':
        return fail(400, 'invalid_name', result.message);
      case 'too_many':
        return fail(409, 'too_many_teams', `at most ${TEAM_OWNERS_MAX} teams have owner details`);
      default: {
        const unreachable: never = result;
        throw new Error(`unexpected owner result ${JSON.stringify(unreachable)}`);
      }
    }
  });
}
