/**
 * A tiny loopback reverse proxy standing in for the ingress in front of the
 * dashboard: it forwards only requests under `prefix` (unchanged — Next's
 * basePath expects the prefix) and answers 404 to anything else, so a fetch
 * or link that forgot the base path fails loudly instead of working by luck.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PrefixProxy {
  origin: string;
  /** Paths requested outside the prefix (each got a 404). */
  outside: string[];
  close(): Promise<void>;
}

function underPrefix(url: string, prefix: string): boolean {
  return url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`);
}

export async function startPrefixProxy(prefix: string, upstreamPort: number): Promise<PrefixProxy> {
  const outside: string[] = [];
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    if (!underPrefix(url, prefix)) {
      outside.push(url);
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end(`outside the proxy prefix ${prefix}\n`);
      return;
    }
    const upstream = http.request(
      {
        host: '127.0.0.1',
        port: upstreamPort,
        method: req.method,
        path: url,
        headers: { ...req.headers, 'x-forwarded-host': req.headers.host ?? '', 'x-forwarded-proto': 'http' },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('upstream unavailable\n');
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    outside,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
