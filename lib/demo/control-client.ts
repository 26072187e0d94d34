/**
 * The dashboard's side of the demo controls: forwards to the supervisor's
 * loopback control endpoint. Demo mode is on only when the supervisor started
 * this server with LEASEBOARD_DEMO_CONTROL_URL (a 127.0.0.1 URL) and its
 * token; otherwise every demo route answers 404, as if it did not exist.
 */
import type { AuthConfig } from '../auth/config';
import { authorizeWrite } from '../auth/guard';

const notFound = () => Response.json({ error: { code: 'not_found', message: 'demo controls are off (not started by npm run demo)' } }, { status: 404 });

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

export async function forwardToSupervisor(method: 'GET' | 'POST', path: string): Promise<Response> {
  const target = control();
  if (!target) return notFound();
  try {
    const response = await fetch(new URL(path, target.url), {
      method,
      headers: { authorization: `Bearer ${target.token}` },
      signal: AbortSignal.timeout(15_000),
      cache: 'no-store',
    });
    return new Response(await response.text(), { status: response.status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });
  } catch {
    return Response.json({ error: { code: 'supervisor_unreachable', message: 'the demo supervisor did not answer' } }, { status: 502 });
  }
}

/**
 * POST /api/demo/processes/{id}/{action}: a real fault on a real process, so
 * it is gated like every write — same origin and the operator role, else 403
 * (../auth/guard.ts) — before anything reaches the supervisor.
 */
export async function demoActionRoute(request: Request, id: string, action: string, deps: { auth: AuthConfig; nowMs: () => number }): Promise<Response> {
  const gate = await authorizeWrite(deps.auth, request.headers, deps.nowMs());
  if (!gate.ok) return Response.json({ error: { code: gate.refusal.code, message: gate.refusal.message } }, { status: gate.refusal.status });
  return forwardToSupervisor('POST', `/processes/${encodeURIComponent(id)}/${encodeURIComponent(action)}`);
}
