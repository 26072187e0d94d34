/**
 * `tsx lib/archive/cli.ts [--port N]`: the archive service (./server.ts) as a
 * process of its own, on 127.0.0.1 (port 0: a free one). Prints
 * `{"event":"listening","url":"http://127.0.0.1:…"}`, then one JSON line per
 * decision (`accepted`, `rejected`, with lease, key and epochs — no bodies).
 * SIGTERM/SIGINT stop it; so does its stdin closing when started with
 * LEASEBOARD_EXIT_WITH_PARENT=1 (the demo, tests). Bad options: exit 2.
 */
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { listenToParent } from '../child/json-line-process';
import { Archive, createArchiveServer } from './server';

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

const print = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);
const server = createArchiveServer(new Archive(), (decision) =>
  print(decision.kind === 'accepted' ? { event: 'accepted', ...decision } : { event: 'rejected', ...decision }),
);
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
listenToParent(() => {}, stop);
server.listen(port, '127.0.0.1', () => print({ event: 'listening', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
