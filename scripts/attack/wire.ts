/**
 * The attack command's wire: raw HTTP/1.1 over a socket, so a probe sends
 * exactly the bytes it means (a bad Host, a slow body, a path `fetch` would
 * normalise) and sees exactly what comes back and when the server hangs up.
 */
import net from 'node:net';
import tls from 'node:tls';

export interface Target {
  url: URL;
  /** Local address to connect from (a lockout then hits only that address), or undefined. */
  sourceAddress?: string;
}

export interface Answer {
  /** 0: no answer (closed or timed out before a status line). */
  status: number;
  headers: Record<string, string>;
  setCookies: string[];
  body: string;
  /** When the status line arrived, ms after the request started; null if it never did. */
  answeredAfterMs: number | null;
  /** When the server closed the connection, ms after the request started; null if it did not within the timeout. */
  closedAfterMs: number | null;
  /** Body bytes this side managed to send. */
  bytesSent: number;
}

export interface RawRequest {
  method: string;
  /** The request target exactly as sent (path and query, already encoded — or deliberately not). */
  path: string;
  headers: Record<string, string>;
  /** A body sent at once. */
  body?: string | Buffer;
  /** Or a body fed over time: called with a writer until it returns, or the server answers or closes. */
  feed?: (write: (chunk: string | Buffer) => boolean, answered: () => boolean) => Promise<void>;
  /** Leave the header block open (no blank line): `feed` then sends more header lines — slow headers. */
  openHeaders?: boolean;
  timeoutMs: number;
}

function connect(target: Target): net.Socket {
  const port = Number(target.url.port || (target.url.protocol === 'https:' ? 443 : 80));
  const host = target.url.hostname.replace(/^\[|\]$/g, '');
  const options = { host, port, localAddress: target.sourceAddress };
  return target.url.protocol === 'https:' ? tls.connect({ ...options, servername: host }) : net.connect(options);
}

/** A chunked body's payload (what arrived of it). */
function dechunk(raw: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = parseInt(raw.subarray(at, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

function parseHead(text: string): Pick<Answer, 'status' | 'headers' | 'setCookies'> {
  const [statusLine, ...lines] = text.split('\r\n');
  const headers: Record<string, string> = {};
  const setCookies: string[] = [];
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'set-cookie') setCookies.push(value);
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  return { status: Number(statusLine?.split(' ')[1] ?? 0), headers, setCookies };
}

/** One request on a fresh connection; resolves once the server closed it, or at the timeout. */
export function send(target: Target, request: RawRequest): Promise<Answer> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(target);
    const received: Buffer[] = [];
    let answeredAfterMs: number | null = null;
    let bytesSent = 0;
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const raw = Buffer.concat(received);
      const end = raw.indexOf('\r\n\r\n');
      const head = end >= 0 ? parseHead(raw.subarray(0, end).toString('latin1')) : { status: 0, headers: {}, setCookies: [] };
      const payload =
        end < 0 ? Buffer.alloc(0) : /chunked/i.test(head.headers['transfer-encoding'] ?? '') ? dechunk(raw.subarray(end + 4)) : raw.subarray(end + 4);
      resolve({
        ...head,
        body: payload.toString('utf8'),
        answeredAfterMs,
        closedAfterMs: closed ? Date.now() - started : null,
        bytesSent,
      });
    };
    const timer = setTimeout(() => finish(false), request.timeoutMs);
    socket.on('error', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      if (answeredAfterMs === null && Buffer.concat(received).includes('\r\n\r\n')) answeredAfterMs = Date.now() - started;
    });
    const headerLines = Object.entries({ connection: 'close', ...request.headers }).map(([name, value]) => `${name}: ${value}`);
    socket.write(`${request.method} ${request.path} HTTP/1.1\r\n${headerLines.join('\r\n')}\r\n${request.openHeaders ? '' : '\r\n'}`);
    const write = (chunk: string | Buffer) => {
      if (done || socket.destroyed) return false;
      bytesSent += Buffer.byteLength(chunk);
      return socket.write(chunk);
    };
    if (request.body !== undefined) write(request.body);
    void request.feed?.(write, () => answeredAfterMs !== null || done);
  });
}

/** The base path of the target URL ('' at the root), for building request targets. */
export function basePath(target: Target): string {
  return target.url.pathname.replace(/\/+$/, '');
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
