// Supervised children leave when their parent is gone — whatever is gone with it — and never spin on a
// closed pipe (once: an orphaned dashboard server at a full core for 12 minutes). Real processes.
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { SHUTDOWN_DEADLINE_MS } from './parent';
import { killAll, processInfo } from './testing/process-tree';

const CHILD = path.join(__dirname, 'testing/orphan-child.ts');
const started = new Set<number>();
afterEach(() => killAll(started));

const firstLine = (child: ChildProcess) => new Promise<string>((resolve) => readline.createInterface({ input: child.stdout! }).once('line', resolve));

/** Waits until `pid` has ended; returns the CPU seconds it used from now on (sampled every 100 ms) and how long it took. */
async function watchUntilGone(pid: number, timeoutMs: number): Promise<{ gone: boolean; afterMs: number; cpuS: number }> {
  const start = Date.now();
  const cpuAtStart = processInfo(pid)?.cpuS ?? 0;
  let cpuS = 0;
  while (Date.now() - start < timeoutMs) {
    const info = processInfo(pid);
    if (info === null) return { gone: true, afterMs: Date.now() - start, cpuS };
    cpuS = info.cpuS - cpuAtStart;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { gone: false, afterMs: Date.now() - start, cpuS };
}

const supervisedEnv = { ...process.env, LEASEBOARD_HARNESS_EXIT_WITH_PARENT: '1' };

describe('a supervised child whose parent is gone', () => {
  it('given its stdout and stderr closed under it while it logs, it drops the output and exits by its deadline, without spinning', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD], { env: supervisedEnv, stdio: ['pipe', 'pipe', 'pipe'] });
    started.add(child.pid!);
    expect(await firstLine(child)).toBe('ready');
    // The reader leaves (as a killed supervisor's pipes close); its stdin stays open.
    child.stdout!.destroy();
    child.stderr!.destroy();
    const outcome = await watchUntilGone(child.pid!, SHUTDOWN_DEADLINE_MS + 5_000);
    expect(outcome.gone).toBe(true);
    expect(outcome.afterMs).toBeLessThan(SHUTDOWN_DEADLINE_MS + 2_000);
    // Logging every 5 ms into a dropped stream costs little; an EPIPE loop burns the whole span.
    expect(outcome.cpuS).toBeLessThan(1);
  });

  it('given its parent killed while something else still holds its stdin, it notices the reparenting and exits by its deadline', async () => {
    // parent → child; the child's stdin and stdout are this test's pipes (inherited through the parent, read
    // here to the end), so only its ppid tells it the parent is gone.
    const parent = spawn(
      process.execPath,
      [
        '-e',
        `const c = require('node:child_process').spawn(process.execPath, ['--import', 'tsx', ${JSON.stringify(CHILD)}], { stdio: ['inherit', 'inherit', 'ignore'] });
         process.stdout.write(String(c.pid) + '\\n');`,
      ],
      { env: supervisedEnv, stdio: ['pipe', 'pipe', 'ignore'] },
    );
    started.add(parent.pid!);
    const lines = readline.createInterface({ input: parent.stdout! });
    const childPid = Number(await new Promise<string>((resolve) => lines.once('line', resolve)));
    started.add(childPid);
    await new Promise<void>((resolve) => lines.on('line', (line) => line === 'ready' && resolve()));
    parent.kill('SIGKILL');
    const outcome = await watchUntilGone(childPid, SHUTDOWN_DEADLINE_MS + 5_000);
    expect(outcome.gone).toBe(true);
    expect(outcome.afterMs).toBeLessThan(SHUTDOWN_DEADLINE_MS + 2_000);
    expect(outcome.cpuS).toBeLessThan(1);
  });
});
