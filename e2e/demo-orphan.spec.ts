/**
 * A security review's high finding (an orphaned demo spinning at a full
 * core), reproduced as a CI job or a supervisor runs the
 * demo: `npm run demo` started as a child with piped output, SIGINT to its npm
 * process, SIGKILL 8 s later, and then its parent exits. No process of the demo
 * may outlive that by more than 10 s, and none may burn CPU meanwhile (the
 * orphaned dashboard server used to spin on EPIPE at a full core, forever).
 *
 * Real processes: npm, the demo supervisor, its embedded PostgreSQL (a fresh
 * data directory), the dashboard server (the suite's own build), the archive,
 * the schedulers and, when installed, Alertmanager.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { expect, test } from '@playwright/test';
import { freePort } from '../db/free-port';
import { descendants, killAll, processInfo, type ProcessInfo } from '../lib/child/testing/process-tree';
import { E2E_BUILD_ENV } from './support/build';

const ROOT = path.resolve(__dirname, '..');
const OUTLIVE_LIMIT_MS = 10_000;
/** CPU a process may use while it stops (closing Next.js, a fast shutdown of PostgreSQL); a loop uses the whole span. */
const STOPPING_CPU_LIMIT_S = 1.5;

/** The CI job: runs `npm run demo` with piped output, forwards each line as JSON, exits (killing nothing) on "exit". */
const CI_PARENT = `
const { spawn } = require('node:child_process');
const readline = require('node:readline');
const demo = spawn('npm', ['run', 'demo'], { cwd: process.argv[1], stdio: ['pipe', 'pipe', 'pipe'] });
process.stdout.write(JSON.stringify({ npm: demo.pid }) + '\\n');
for (const stream of [demo.stdout, demo.stderr]) readline.createInterface({ input: stream }).on('line', (line) => process.stdout.write(JSON.stringify({ line }) + '\\n'));
readline.createInterface({ input: process.stdin }).on('line', (line) => line === 'exit' && process.exit(0));
`;

const tracked = new Map<number, ProcessInfo>();
let parent: ChildProcess | null = null;
let dataDir = '';

test.afterEach(() => {
  if (parent?.exitCode === null) parent.kill('SIGKILL');
  killAll(tracked.keys());
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test('a demo stopped as a CI job stops it — SIGINT, SIGKILL 8 s later, parent gone — leaves nothing running, and nothing spins', async () => {
  test.setTimeout(240_000);
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'leaseboard-orphan-test-'));
  const env: NodeJS.ProcessEnv = { ...E2E_BUILD_ENV, LEASEBOARD_DATA_DIR: dataDir, PORT: String(await freePort()) };
  delete env.DATABASE_URL;
  delete env.ALERTMANAGER_URL;
  parent = spawn(process.execPath, ['-e', CI_PARENT, ROOT], { env, stdio: ['pipe', 'pipe', 'inherit'] });
  const output: string[] = [];
  let npmPid = 0;
  const ready = new Promise<void>((resolve, reject) => {
    parent!.once('exit', () => reject(new Error(`the CI parent exited early; demo output:\n${output.slice(-20).join('\n')}`)));
    readline.createInterface({ input: parent!.stdout! }).on('line', (text) => {
      const message = JSON.parse(text) as { npm?: number; line?: string };
      if (message.npm) npmPid = message.npm;
      if (message.line === undefined) return;
      output.push(message.line);
      if (message.line.includes('operator token')) resolve();
    });
  });
  await ready;
  const track = () => {
    for (const process of descendants(npmPid)) if (!tracked.has(process.pid)) tracked.set(process.pid, process);
  };
  track();
  expect([...tracked.values()].some((p) => p.command.includes('scripts/serve.ts'))).toBe(true);
  const sampler = setInterval(track, 100);

  process.kill(npmPid, 'SIGINT');
  await new Promise((resolve) => setTimeout(resolve, 8_000));
  track();
  killAll([npmPid]); // SIGKILL, if npm has not exited by now
  await new Promise((resolve) => setTimeout(resolve, 100));
  track();
  clearInterval(sampler);
  const parentGone = new Promise((resolve) => parent!.once('exit', resolve));
  parent.stdin!.write('exit\n');
  await parentGone;
  const goneAt = Date.now();

  // From the parent's exit on: every process of the demo must end within the limit, using little CPU meanwhile.
  const cpuAtExit = new Map([...tracked.keys()].map((pid) => [pid, processInfo(pid)?.cpuS ?? 0]));
  const used = new Map<number, number>();
  let alive: number[] = [];
  do {
    await new Promise((resolve) => setTimeout(resolve, 200));
    alive = [...tracked.keys()].filter((pid) => {
      const now = processInfo(pid);
      if (now !== null) used.set(pid, now.cpuS - cpuAtExit.get(pid)!);
      return now !== null;
    });
  } while (alive.length > 0 && Date.now() - goneAt < OUTLIVE_LIMIT_MS);

  const lastEndedMs = Date.now() - goneAt;
  const busiest = [...used.entries()].sort((a, b) => b[1] - a[1])[0];
  console.log(
    `demo-orphan: ${tracked.size} processes; ${alive.length === 0 ? `the last ended within ${lastEndedMs} ms` : `${alive.length} still running ${lastEndedMs} ms`} after the parent exited; the busiest used ${(busiest?.[1] ?? 0).toFixed(2)} s of CPU meanwhile (${tracked.get(busiest?.[0] ?? 0)?.command.slice(0, 60) ?? '-'})`,
  );
  const describe = (pid: number) => `${pid} ${tracked.get(pid)!.command.slice(0, 90)} (${(used.get(pid) ?? 0).toFixed(2)} s CPU)`;
  expect(alive.map(describe), `still running ${OUTLIVE_LIMIT_MS} ms after the parent exited`).toEqual([]);
  const spinning = [...used.entries()].filter(([, cpu]) => cpu > STOPPING_CPU_LIMIT_S).map(([pid]) => describe(pid));
  expect(spinning, 'used more CPU than stopping takes').toEqual([]);
  expect(tracked.size).toBeGreaterThan(5); // npm, the supervisor, the database, the dashboard, the archive, the schedulers…
});
