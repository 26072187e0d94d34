/**
 * The demo supervisor's control endpoint: HTTP on 127.0.0.1 only, every
 * request must carry the random bearer token the supervisor handed to the
 * dashboard process. GET /processes; POST /processes/{id}/{action}.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DrillAction } from '../../lib/api/types';
import { DRILL_ACTIONS } from '../../lib/api/drill-actions';
import type { DemoSupervisor } from './supervisor';

export interface ControlServer {
  url: string;
  token: string;
  close(): Promise<void>;
}

function send(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

const error = (code: string, message: string) => ({ error: { code, message } });

export async function startControlServer(supervisor: DemoSupervisor): Promise<ControlServer> {
  const token = randomBytes(24).toString('base64url');
  const expected = Buffer.from(`Bearer ${token}`);
  const server = http.createServer(async (req, res) => {
    const given = Buffer.from(req.headers.authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return send(res, 401, error('unauthorized', 'missing or wrong control token'));
    const parts = new URL(req.url ?? '/', 'http://control').pathname.split('/').filter(Boolean);
    if (req.method === 'GET' && parts.length === 1 && parts[0] === 'processes') return send(res, 200, { processes: supervisor.list() });
    if (req.method === 'POST' && parts.length === 3 && parts[0] === 'processes') {
      const [, id, action] = parts as [string, string, string];
      if (!DRILL_ACTIONS.includes(action as DrillAction)) return send(res, 400, error('bad_action', `action must be one of ${DRILL_ACTIONS.join(', ')}`));
      const outcome = await supervisor.act(id, action as DrillAction);
      if (outcome.kind === 'not_found') return send(res, 404, error('not_found', `no demo process ${id}`));
      if (outcome.kind === 'not_running') return send(res, 409, error('not_running', `${id} has exited; restart it first`));
      return send(res, 200, { process: outcome.process });
    }
    return send(res, 404, error('not_found', 'no such control route'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
