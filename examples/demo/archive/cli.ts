/**
 * `tsx examples/demo/archive/cli.ts [--port N]`: the archive service (./server.ts) as a
 * process of its own, on 127.0.0.1 (port 0: a free one). Writes need the
 * bearer token in LEASEBOARD_ARCHIVE_TOKEN (at least 24 characters, shared
 * with the writers; without it the archive does not start: exit 2). Prints
 * `{"event":"listening","url":"http://127.0.0.1:…"}`, then one JSON line per
 * decision (`accepted`, `rejected`, with lease, key and epochs — no bodies).
 * SIGTERM/SIGINT stop it (within SHUTDOWN_DEADLINE_MS); so does its parent
 * going away when started with LEASEBOARD_HARNESS_EXIT_WITH_PARENT=1 (the demo,
 * tests; lib/child/parent.ts). Bad options: exit 2.
 */
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { listenToParent, SHUTDOWN_DEADLINE_MS, shutdownWithin } from '../../../lib/child/parent';
import { guardStdio } from '../../../lib/child/stdio';
import { Archive, ARCHIVE_TOKEN_MIN_LENGTH, createArchiveServer } from './server';

function fail(message: string): never {
  process.stderr.write(`archive: ${message}\n`);
  process.exit(2);
}

let port = 0;
try {
  const { values } = parseArgs({ options: { port: { type: 'string' } }, strict: true });
  if (values.port !== undefined) port = /^\d{1,5}$/.test(values.port) && Number(values.port) < 65_536 ? Number(values.port) : fail('--port: 0–65535');
} catch (error) {
  fail((error as Error).message);
}

const token = process.env.LEASEBOARD_ARCHIVE_TOKEN?.trim() ?? '';
if (token.length < ARCHIVE_TOKEN_MIN_LENGTH) fail(`LEASEBOARD_ARCHIVE_TOKEN: the writers' bearer token, at least ${ARCHIVE_TOKEN_MIN_LENGTH} characters`);

const print = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);
const server = createArchiveServer(new Archive(), { token }, (decision) =>
  print(decision.kind === 'accepted' ? { event: 'accepted', ...decision } : { event: 'rejected', ...decision }),
);
guardStdio();
const stop = shutdownWithin(
  SHUTDOWN_DEADLINE_MS,
  () => new Promise<void>((resolve) => server.close(() => resolve())),
  (line) => process.stderr.write(`archive: ${line}\n`),
);
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));
listenToParent(
  () => {},
  () => stop('parent gone'),
);
server.listen(port, '127.0.0.1', () => print({ event: 'listening', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
