/**
 * A local webhook receiver for Alertmanager notifications (tests and demo):
 * an HTTP server on loopback that keeps what Alertmanager POSTs.
 *
 * Guarantees: listens on 127.0.0.1 on a free port; keeps the newest
 * `keep` notifications (default 1,000; older ones are dropped); bodies over
 * 1 MiB or not JSON are answered 400 and not kept; `close()` closes the
 * server and its connections.
 * Non-guarantees: no authentication (loopback only); not a product receiver.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Alertmanager's webhook payload (version 4), the parts we read. */
interface WebhookAlert {
  status: 'firing' | 'resolved';
  labels: Record<string, string>;
  annotations: Record<string, string>;
  startsAt: string;
  endsAt: string;
  generatorURL: string;
  fingerprint: string;
}

interface WebhookNotification {
  receiver: string;
  status: 'firing' | 'resolved';
  alerts: WebhookAlert[];
  groupLabels: Record<string, string>;
}

export interface Received {
  path: string;
  body: WebhookNotification;
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:PORT{path}`. */
  url(path?: string): string;
  /** Newest last. */
  received(): readonly Received[];
  /** Every alert of every notification, newest last. */
  alerts(): WebhookAlert[];
  close(): Promise<void>;
}

const MAX_BODY = 1024 * 1024;

/** `onReceived` hears each notification as it is kept (the demo prints them). */
export async function startWebhookReceiver(options: { keep?: number; onReceived?: (received: Received) => void } = {}): Promise<WebhookReceiver> {
  const keep = options.keep ?? 1_000;
  const kept: Received[] = [];
  const server = http.createServer((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on('end', () => {
      let body: WebhookNotification;
      try {
        if (size > MAX_BODY) throw new Error('too large');
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as WebhookNotification;
      } catch {
        res.writeHead(400).end();
        return;
      }
      const received = { path: req.url ?? '/', body };
      kept.push(received);
      if (kept.length > keep) kept.splice(0, kept.length - keep);
      options.onReceived?.(received);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path = '/') => `http://127.0.0.1:${port}${path}`,
    received: () => kept.slice(),
    alerts: () => kept.flatMap((r) => r.body.alerts),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
