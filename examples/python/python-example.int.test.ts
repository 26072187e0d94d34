// The Python example (examples/python/leaseboard_scheduler.py) against a real
// PostgreSQL, as real processes: two instances, the first paused with SIGSTOP
// before a write, the second takes over, and the first's write on waking is
// refused by the database with LB001. Needs a python3 with psycopg 3 (Debian:
// python3-psycopg, which .ci/run installs); without one the test is skipped, and says why.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseUrl, uniqueLease, usePool } from '../../db/testing/pools';

const SCRIPT = path.join(__dirname, 'leaseboard_scheduler.py');

/** The first python3 that imports psycopg: Debian's (/usr/bin/python3) before whatever is first on PATH. */
function pythonWithPsycopg(): string | null {
  for (const candidate of ['/usr/bin/python3', 'python3']) {
    if (spawnSync(candidate, ['-c', 'import psycopg'], { stdio: 'ignore' }).status === 0) return candidate;
  }
  return null;
}
const PYTHON = pythonWithPsycopg();

interface Line {
  event: string;
  epoch?: number;
  sqlstate?: string;
  [key: string]: unknown;
}

class PythonScheduler {
  readonly lines: Line[] = [];
  private readonly child;
  private waiters: { match: (line: Line) => boolean; resolve: (line: Line) => void }[] = [];

  constructor(args: string[]) {
    this.child = spawn(PYTHON!, [SCRIPT, ...args], { env: { ...process.env, DATABASE_URL: databaseUrl() }, stdio: ['ignore', 'pipe', 'inherit'] });
    readline.createInterface({ input: this.child.stdout }).on('line', (text) => {
      const line = JSON.parse(text) as Line;
      this.lines.push(line);
      this.waiters = this.waiters.filter((w) => !(w.match(line) && (w.resolve(line), true)));
    });
  }

  waitFor(match: (line: Line) => boolean, timeoutMs = 20_000): Promise<Line> {
    const seen = this.lines.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching line within ${timeoutMs} ms; got ${JSON.stringify(this.lines)}`)), timeoutMs);
      this.waiters.push({ match, resolve: (line) => (clearTimeout(timer), resolve(line)) });
    });
  }

  signal(name: NodeJS.Signals): void {
    this.child.kill(name);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGCONT');
    this.child.kill('SIGKILL');
    await exited;
  }
}

describe('the Python example scheduler (SQL functions, psycopg)', () => {
  const db = usePool();
  const started: PythonScheduler[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((p) => p.stop()));
  });
  const python = (args: string[]) => {
    const p = new PythonScheduler(args);
    started.push(p);
    return p;
  };

  it('two instances: a takeover, and the paused one’s write on waking is refused with LB001', async (ctx) => {
    if (PYTHON === null) ctx.skip('no python3 with psycopg 3 here (Debian: apt-get install python3-psycopg; .ci/run installs it)');
    const setup = spawnSync(PYTHON!, [SCRIPT, '--setup'], { env: { ...process.env, DATABASE_URL: databaseUrl() }, encoding: 'utf8' });
    expect(setup.status, setup.stderr).toBe(0);
    const lease = uniqueLease('python');
    const timing = ['--lease', lease, '--ttl-ms', '1500', '--renew-every-ms', '300'];

    const first = python([...timing, '--label', 'py-first', '--pause-before-write', '3']);
    const { epoch: firstEpoch } = await first.waitFor((l) => l.event === 'acquired');
    await first.waitFor((l) => l.event === 'pausing'); // it stops itself (SIGSTOP) right after a successful renewal

    const second = python([...timing, '--label', 'py-second']);
    const taken = await second.waitFor((l) => l.event === 'acquired');
    expect(taken.epoch).toBeGreaterThan(firstEpoch!);
    await second.waitFor((l) => l.event === 'wrote' && l.epoch === taken.epoch);

    first.signal('SIGCONT');
    const refused = await first.waitFor((l) => l.event === 'write_rejected');
    expect(refused).toMatchObject({ epoch: firstEpoch, sqlstate: 'LB001' });
    await first.waitFor((l) => l.event === 'lost' && l.epoch === firstEpoch);

    const { rows } = await db.query<{ epoch: string; n: number }>(
      `SELECT epoch::text, count(*)::int AS n FROM example_py_writes WHERE lease = $1 GROUP BY epoch`,
      [lease],
    );
    const byEpoch = new Map(rows.map((r) => [Number(r.epoch), r.n]));
    expect(byEpoch.get(firstEpoch!), 'the first tenure wrote before its pause').toBe(2);
    expect(byEpoch.get(taken.epoch!)).toBeGreaterThan(0);
    expect([...byEpoch.keys()].sort()).toEqual([firstEpoch, taken.epoch].sort());
  });
});
