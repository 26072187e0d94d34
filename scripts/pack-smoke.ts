/**
 * `npm run smoke:pack` (DATABASE_URL required): the package as a user gets it.
 * `npm pack`s this repository, installs the tarball into a fresh temporary
 * folder (npm, preferring its cache), and there:
 * 1. `npx leaseboard --help` and `npx leaseboard run --help` answer, exit 0;
 * 2. `npx leaseboard migrate` migrates DATABASE_URL;
 * 3. `npx leaseboard run --once -- sh -c 'echo …'` runs the command once under
 *    a lease, with LEASEBOARD_EPOCH in its environment, and exits 0;
 * 4. the README's "Run your own job under a lease" example — the block
 *    itself, its import changed to `from 'leaseboard'` (the package's
 *    `exports`) — runs one occurrence and writes its 1000 fenced rows.
 * Prints one line per check; exit 0 when all pass, 1 on the first failure
 * (with the output that shows why). Removes the folder it made.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');
const url = process.env.DATABASE_URL;
if (!url) {
  process.stderr.write('smoke:pack: set DATABASE_URL (a database it may migrate and write to)\n');
  process.exit(2);
}
const dir = mkdtempSync(path.join(os.tmpdir(), 'leaseboard-pack-'));
const app = path.join(dir, 'app');
const suffix = Math.random().toString(36).slice(2, 8);

function check(name: string, command: string, args: string[], expect: (out: { status: number | null; stdout: string; stderr: string }) => boolean) {
  const started = Date.now();
  const run = spawnSync(command, args, { cwd: app, env: { ...process.env, DATABASE_URL: url }, encoding: 'utf8', timeout: 180_000 });
  const out = { status: run.status, stdout: run.stdout ?? '', stderr: run.stderr ?? '' };
  if (!expect(out)) {
    process.stdout.write(`FAIL ${name} (exit ${out.status})\n--- stdout\n${out.stdout.slice(-3000)}\n--- stderr\n${out.stderr.slice(-3000)}\n`);
    throw new Error(`smoke:pack: ${name} failed`);
  }
  process.stdout.write(`ok   ${name} (${Date.now() - started} ms)\n`);
  return out;
}

/** The README's example block (the one a test holds equal to lib/jobs/example-squares/job.ts), importing the package. */
function readmeExample(): string {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const match = /<!-- example: lib\/jobs\/example-squares\/job.ts -->\n```ts\n([\s\S]*?)```/.exec(readme);
  if (!match) throw new Error('smoke:pack: the README example block was not found');
  return match[1]!.replace(`from '../../scheduler'`, `from 'leaseboard'`);
}

const RUN_EXAMPLE = `import { createPool, createReadOnlyPool, SchedulerRuntime, schedulerConfig } from 'leaseboard';
import { SQUARES_MIGRATION, squaresJob } from './job';

async function main() {
  const url = process.env.DATABASE_URL!;
  const lease = process.argv[2]!;
  const db = createPool(url);
  const readDb = createReadOnlyPool(url);
  await db.query(SQUARES_MIGRATION);
  let completed!: () => void;
  const done = new Promise<void>((resolve) => (completed = resolve));
  const runtime = new SchedulerRuntime(squaresJob, schedulerConfig({ name: lease, batchWorkMs: 0 }), {
    db,
    readDb,
    onEvent: (event) => event.event === 'occurrence_completed' && completed(),
  });
  runtime.start();
  await done;
  await runtime.stop();
  const { rows } = await db.query('SELECT count(*)::int AS n FROM squares WHERE lease = $1', [lease]);
  console.log(\`squares written: \${rows[0].n}\`);
  await Promise.all([db.end(), readDb.end()]);
}
void main();
`;

try {
  const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n').at(-1)!;
  process.stdout.write(`ok   npm pack → ${tarball}\n`);
  execFileSync('mkdir', ['-p', app]);
  writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'leaseboard-smoke', private: true, version: '0.0.0' }));
  check('npm install the tarball', 'npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', path.join(dir, tarball)], (o) => o.status === 0);
  check('npx leaseboard --help', 'npx', ['leaseboard', '--help'], (o) => o.status === 0 && o.stdout.includes('run '));
  check('npx leaseboard run --help', 'npx', ['leaseboard', 'run', '--help'], (o) => o.status === 0 && o.stdout.includes('exit codes'));
  check('npx leaseboard migrate', 'npx', ['leaseboard', 'migrate'], (o) => o.status === 0);
  check(
    "npx leaseboard run --once -- sh -c 'echo …'",
    'npx',
    ['leaseboard', 'run', '--once', '--lease', `pack-smoke-${suffix}`, '--', 'sh', '-c', 'echo "packed run, epoch $LEASEBOARD_EPOCH"'],
    (o) => o.status === 0 && /packed run, epoch \d+/.test(o.stderr) && o.stdout.includes('"occurrence_completed"'),
  );
  writeFileSync(path.join(app, 'job.ts'), readmeExample());
  writeFileSync(path.join(app, 'run-job.ts'), RUN_EXAMPLE);
  check(
    "the README's \"Run your own job\" example, importing 'leaseboard'",
    process.execPath,
    ['--import', 'tsx', 'run-job.ts', `pack-squares-${suffix}`],
    (o) => o.stdout.includes('squares written: 1000'),
  );
  process.stdout.write('smoke:pack: all passed\n');
} catch (error) {
  process.stdout.write(`${(error as Error).message}\n`);
  process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
