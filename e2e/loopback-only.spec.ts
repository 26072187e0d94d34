/**
 * `npm start` without HOST listens on loopback only: a status page with write
 * routes is never on every interface by accident (lib/host/dashboard-server.ts).
 *
 * The suite's server is started exactly as `npm start` starts it
 * (scripts/serve.ts with `-p` only, no `-H`, no HOST). It answers on
 * 127.0.0.1, and the same port on each of this machine's other addresses
 * refuses the connection.
 */
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

test('without HOST the dashboard listens on loopback only', async ({ env }) => {
  test.skip(process.env.HOST !== undefined, 'HOST is set for this run: the server was asked to listen there');
  const addresses = externalAddresses();
  test.skip(addresses.length === 0, 'this machine has no address but loopback');
  const port = Number(new URL(env.directUrl).port);

  expect(await connect('127.0.0.1', port)).toBe('connected');
  for (const address of addresses) {
    expect(await connect(address, port), `port ${port} on ${address}`).toBe('refused');
  }
});
