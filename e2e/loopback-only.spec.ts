/**
 * `npm start` without HOST listens on loopback only: a status page with write
 * routes is never on every interface by accident (lib/host/dashboard-server.ts).
 *
 * The suite's server is started exactly as `npm start` starts it
 * (scripts/serve.ts with `-p` only, no `-H`, no HOST: e2e/global-setup.ts).
 * It answers on 127.0.0.1; the kernel lists its listening socket on
 * 127.0.0.1 only (Linux /proc/net, where it exists); and the same port on
 * each of this machine's other addresses refuses the connection.
 */
import { existsSync, readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { expect, test } from './fixtures/test';

type Outcome = 'connected' | 'refused' | `error ${string}`;

function connect(host: string, port: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 3_000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve('error timeout');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED' ? 'refused' : `error ${error.code ?? error.message}`));
  });
}

/** Addresses a remote client could reach this machine on (link-local IPv6 left out: it needs a scope). */
function externalAddresses(): string[] {
  return Object.values(os.networkInterfaces())
    .flatMap((addresses) => addresses ?? [])
    .filter((address) => !address.internal && !address.address.startsWith('fe80:'))
    .map((address) => address.address);
}

/** The local addresses (kernel hex, e.g. `0100007F` for 127.0.0.1) of TCP sockets listening on `port`, or null without /proc/net. */
function listeningAddresses(port: number): string[] | null {
  const tables = ['/proc/net/tcp', '/proc/net/tcp6'].filter((file) => existsSync(file));
  if (tables.length === 0) return null;
  const portHex = port.toString(16).toUpperCase().padStart(4, '0');
  return tables.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .filter((fields) => fields[3] === '0A' && fields[1]?.endsWith(`:${portHex}`)) // 0A: LISTEN
      .map((fields) => fields[1]!.split(':')[0]!),
  );
}

test('without HOST the dashboard listens on loopback only', async ({ env }) => {
  const port = Number(new URL(env.directUrl).port);

  expect(await connect('127.0.0.1', port)).toBe('connected');
  const listening = listeningAddresses(port);
  if (listening !== null) expect(listening).toEqual(['0100007F']);
  for (const address of externalAddresses()) {
    expect(await connect(address, port), `port ${port} on ${address}`).toBe('refused');
  }
});
