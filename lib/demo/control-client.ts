/**
 * The dashboard's side of the demo controls: forwards to the supervisor's
 * loopback control endpoint. Demo mode is on only when the supervisor started
 * this server with LEASEBOARD_DEMO_CONTROL_URL (a 127.0.0.1 URL) and its
 * token; otherwise every demo route answers 404, as if it did not exist.
 *
 * A fault drill is an operator action like any other: same origin and the
 * operator role (lib/auth/guard.ts, else 403) before anything else, a reason
 * (400 without one), and an audit row once the supervisor applied it
 * (./fault-audit.ts) — shown on the scheduler's page and the Audit page.
 * Not guaranteed: an audit row for a drill applied while the database cannot
 * be written — the answer is then 500, saying the drill was applied but not
 * recorded.
 */
import { DRILL_ACTIONS } from '../api/drill-actions';
import { DemoActionRequestSchema } from '../api/schemas';
import type { DrillAction, DemoProcess } from '../api/types';
import type { ActionDeps } from '../actions/http';
import { BODY_LIMITS, fail, readBody, refuse } from '../actions/respond';
import { authorizeWrite } from '../auth/guard';
import { established } from '../auth/identity';
import { guarded, json } from '../http/respond';
import { recordFaultDrill } from './fault-audit';

const notFound = () => fail(404, 'not_found', 'demo controls are off (not started by npm run demo)');

function control(): { url: URL; token: string } | null {
  const raw = process.env.LEASEBOARD_DEMO_CONTROL_URL;
  const token = process.env.LEASEBOARD_DEMO_CONTROL_TOKEN;
  if (!raw || !token) return null;
  try {
    const url = new URL(raw);
    return url.hostname === '127.0.0.1' ? { url, token } : null;
  } catch {
    return null;
  }
}

async function callSupervisor(method: 'GET' | 'POST', path: string): Promise<{ status: number; text: string } | null> {
  const target = control();
  if (!target) return null;
  try {
    const response = await fetch(new URL(path, target.url), {
      method,
      headers: { authorization: `Bearer ${target.token}` },
      signal: AbortSignal.timeout(15_000),
      cache: 'no-store',
    });
    return { status: response.status, text: await response.text() };
  } catch {
    return { status: 502, text: JSON.stringify({ error: { code: 'supervisor_unreachable', message: 'the demo supervisor did not answer' } }) };
  }
}

const asResponse = (answer: { status: number; text: string }) =>
  new Response(answer.text, { status: answer.status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });

/** GET /api/demo/processes: the supervisor's processes (404 outside demo mode). */
export async function listDemoProcesses(): Promise<Response> {
  const answer = await callSupervisor('GET', '/processes');
  return answer === null ? notFound() : asResponse(answer);
}

/** POST /api/demo/processes/{id}/{action} with `{ reason }`: a real fault on a real process, gated, then audited. */
export function demoActionRoute(request: Request, id: string, action: string, deps: ActionDeps): Promise<Response> {
  return guarded('demo-action', async () => {
    const gate = await authorizeWrite(deps, request.headers, deps.nowMs());
    if (!gate.ok) return refuse(gate.refusal);
    if (control() === null) return notFound();
    if (!(DRILL_ACTIONS as readonly string[]).includes(action)) return fail(400, 'bad_action', `action must be one of ${DRILL_ACTIONS.join(', ')}`);
    const body = await readBody(request, DemoActionRequestSchema, { maxBytes: BODY_LIMITS.faultDrill, deadlineMs: deps.bodyDeadlineMs });
    if (!body.ok) return body.response;
    const listed = await callSupervisor('GET', '/processes');
    if (listed === null || listed.status !== 200) return listed === null ? notFound() : asResponse(listed);
    const before = (JSON.parse(listed.text) as { processes: DemoProcess[] }).processes.find((process) => process.id === id);
    if (!before) return fail(404, 'not_found', `no demo process ${id}`);
    const applied = await callSupervisor('POST', `/processes/${encodeURIComponent(id)}/${encodeURIComponent(action)}`);
    if (applied === null || applied.status !== 200) return applied === null ? notFound() : asResponse(applied);
    const after = (JSON.parse(applied.text) as { process: DemoProcess }).process;
    try {
      const at = await recordFaultDrill(deps.writer, {
        before,
        after,
        action: action as DrillAction,
        by: gate.identity.who,
        identifiedBy: established(gate.identity),
        reason: body.value.reason,
      });
      return json({ process: after, audited: { at } });
    } catch (error) {
      console.error('demo: a fault drill was applied but its audit row could not be written', error);
      return fail(500, 'not_audited', `${action} was applied to ${id}, but its audit row could not be written`);
    }
  });
}
