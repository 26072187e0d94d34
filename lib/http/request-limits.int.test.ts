// The dashboard server's refusals before routing, on a real node:http server and raw sockets: a bad Host
// and an oversized declared body are answered at once; a body refused past a route's limit is read no
// further, and its connection closes after the answer.
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeBodyStream, readBoundedText } from './body';
import { applyServerLimits, MAX_REQUEST_BODY_BYTES, refuseEarly, SERVER_OPTIONS, SERVER_TIMEOUTS, validHost } from './request-limits';

const ROUTE_LIMIT = 4_096;
let port = 0;
let lastBytesRead = 0;
const server = http.createServer(SERVER_OPTIONS, async (req, res) => {
  if (refuseEarly(req, res)) return;
  if (req.url === '/at-once') {
    // Answered inside the request event, as a cached page is: before the request is `complete`.
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' });
    res.end('ok');
    return;
  }
  // A route that takes a bounded body, as lib/actions does.
  const body = await readBoundedText(nodeBodyStream(req), req.headers['content-length'] ?? null, { maxBytes: ROUTE_LIMIT });
  res.writeHead(body.ok ? 200 : body.refusal.status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body.ok ? { length: body.value.length } : { error: body.refusal }));
  res.on('close', () => (lastBytesRead = req.socket.bytesRead));
});
applyServerLimits(server);

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** Sends `head` raw; resolves with the first response's status line and headers, and when the server closed. */
function raw(head: string, feed?: (socket: net.Socket) => void) {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => {}); // the server may close while we still write: that is the point
  socket.write(head);
  feed?.(socket);
  let text = '';
  const answered = new Promise<{ status: number; headers: string; afterMs: number }>((resolve) => {
    const started = Date.now();
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end >= 0) resolve({ status: Number(text.slice(9, 12)), headers: text.slice(0, end).toLowerCase(), afterMs: Date.now() - started });
    });
  });
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  return { answered, closed, socket };
}

describe('connections kept', () => {
  it('a GET answered at once keeps its connection: a second request on it is answered', async () => {
    const { answered, socket } = raw('GET /at-once HTTP/1.1\r\nHost: a\r\n\r\n');
    const first = await answered;
    expect(first.status).toBe(200);
    expect(first.headers).toContain('connection: keep-alive');
    const second = new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString('latin1');
        if (text.includes('\r\n\r\nok')) resolve(text);
      });
    });
    socket.write('GET /at-once HTTP/1.1\r\nHost: a\r\n\r\n');
    expect(await second).toContain('HTTP/1.1 200');
    socket.destroy();
  });

  it('a request whose body is not read yet when answered at once still closes its connection', async () => {
    const { answered, closed } = raw('POST /at-once HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\n');
    expect((await answered).headers).toContain('connection: close');
    await closed;
  });
});

describe('refused before routing', () => {
  it.each([
    ['board.example.org', true],
    ['board.example.org:3000', true],
    ['127.0.0.1:3921', true],
    ['[::1]:3000', true],
    ['x:99999', false],
    ['x:0', false],
    ['a@b', false],
    ['a/b', false],
    ['a b', false],
    ['', false],
  ])('Host %j is valid: %s', (host, valid) => {
    expect(validHost(host)).toBe(valid);
  });

  it('a Host the URL parser rejects (x:99999) gets 400 at once, and the connection closes', async () => {
    const { answered, closed } = raw('GET /api/v1/schedulers HTTP/1.1\r\nHost: x:99999\r\n\r\n');
    const answer = await answered;
    expect(answer.status).toBe(400);
    expect(answer.afterMs).toBeLessThan(1_000);
    await closed;
  });

  it.each(['/api/v1/schedulers/%E0', '/schedulers/%E0%A4%A', '/api/v1/audit?scheduler=%C0%AF', '/x?q=%ZZ'])(
    'a request target that is not valid percent-encoded UTF-8 (%s) gets 400',
    async (target) => {
      const { answered, closed } = raw(`GET ${target} HTTP/1.1\r\nHost: h\r\n\r\n`);
      const answer = await answered;
      expect(answer.status).toBe(400);
      await closed;
    },
  );

  it('headers that never end (a line a second) get 408 within the headers timeout and a check interval, not 30 s later', async () => {
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => {});
    socket.write('GET / HTTP/1.1\r\nHost: h\r\n');
    const drip = setInterval(() => socket.write('x-more: a\r\n'), 1_000);
    const started = Date.now();
    const status = await new Promise<string>((resolve) => socket.once('data', (chunk) => resolve(chunk.toString('latin1').slice(9, 12))));
    clearInterval(drip);
    socket.destroy();
    expect(status).toBe('408');
    expect(Date.now() - started).toBeLessThan(SERVER_TIMEOUTS.headersTimeout + 2 * SERVER_TIMEOUTS.connectionsCheckingInterval + 500);
  });

  it('a declared body over the server-wide limit gets 413 before a byte of it is sent', async () => {
    const { answered, closed } = raw(
      `POST /api/v1/session HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\nContent-Length: ${64 * 1024 * 1024}\r\n\r\n`,
    );
    const answer = await answered;
    expect(answer.status).toBe(413);
    expect(answer.headers).toContain('connection: close');
    await closed;
  });

  it('a streamed body past the route limit is read no further: 413, then the connection closes while the client still sends', async () => {
    expect(ROUTE_LIMIT).toBeLessThan(MAX_REQUEST_BODY_BYTES);
    let sent = 0;
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const { answered, closed } = raw(
      'POST /api/v1/session HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
      (socket) => {
        const pump = () => {
          while (!socket.destroyed && sent < 512 * 1024 * 1024) {
            sent += chunk.length;
            if (!socket.write(`${chunk.length.toString(16)}\r\n`) || !socket.write(chunk) || !socket.write('\r\n')) return socket.once('drain', pump);
          }
        };
        pump();
      },
    );
    const answer = await answered;
    expect(answer.status).toBe(413);
    expect(answer.headers).toContain('connection: close');
    await closed;
    // What the server took off the socket: the route's limit and a few socket reads beyond it, not the upload.
    expect(lastBytesRead).toBeLessThan(1024 * 1024);
    expect(sent).toBeGreaterThan(lastBytesRead);
  });
});
