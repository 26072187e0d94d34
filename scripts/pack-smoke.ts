/**
 * `npm run smoke:pack` (DATABASE_URL required): the two packages as a user gets them.
 * Builds both (scripts/build-packages.ts) on the e2e suite's production build — the one CI's
 * `build` tier makes (e2e/support/build.ts; made here when missing or stale) — so Next is not
 * built a second time; that build's base path (/ops/leaseboard) ships with it. Then, for each
 * package: `npm pack`, `npm install --omit=dev` of the tarball into a fresh folder (npm's cache
 * first), its installed size and package count printed; and there:
 * - @leaseboard/client, with plain `node` (no tsx): `leaseboard --help`, `leaseboard migrate`,
 *   `leaseboard run --once -- sh -c 'echo …'` (LEASEBOARD_EPOCH in its environment), and the
 *   README's library example — lib/jobs/example-squares/job.ts, the file the README's block is held
 *   equal to, its types stripped and its import changed to '@leaseboard/client' — runs one
 *   occurrence and writes its 1000 fenced rows; the same file as TypeScript type-checks against the
 *   package's declarations as a Node ESM user compiles it (moduleResolution nodenext);
 * - leaseboard: `leaseboard migrate`, then `npx leaseboard start` answers /api/healthz within 10 s
 *   of being started (nothing is built), serves the overview page with our server's headers, hosts
 *   its housekeeping jobs, and releases their leases on SIGTERM; a base path other than the build's
 *   is refused;
 * - both in one project (each names its command `leaseboard`): `npx leaseboard` offers `start`.
 * Prints one line per check; exit 0 when all pass, 1 on the first failure (with the output that
 * shows why). Removes the folders it made.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { transformSync } from 'esbuild';
import { E2E_BUILD_ENV, ensureE2eBuild } from '../e2e/support/build';
import { buildPackages } from './build-packages';

const ROOT = path.resolve(__dirname, '..');
const url = process.env.DATABASE_URL;
if (!url) {
  process.stderr.write('smoke:pack: set DATABASE_URL (a database it may migrate and write to)\n');
  process.exit(2);
}
const dir = mkdtempSync(path.join(os.tmpdir(), 'leaseboard-pack-'));
const suffix = Math.random().toString(36).slice(2, 8);
const HEALTHZ_WITHIN_MS = 10_000;

type Outcome = { status: number | null; stdout: string; stderr: string };

function failed(name: string, out: Outcome): never {
  process.stdout.write(`FAIL ${name} (exit ${out.status})\n--- stdout\n${out.stdout.slice(-3000)}\n--- stderr\n${out.stderr.slice(-3000)}\n`);
  throw new Error(`smoke:pack: ${name} failed`);
}

function check(cwd: string, name: string, command: string, args: string[], expect: (out: Outcome) => boolean): Outcome {
  const started = Date.now();
  const run = spawnSync(command, args, { cwd, env: { ...process.env, DATABASE_URL: url }, encoding: 'utf8', timeout: 180_000 });
  const out = { status: run.status, stdout: run.stdout ?? '', stderr: run.stderr ?? '' };
  if (!expect(out)) failed(name, out);
  process.stdout.write(`ok   ${name} (${Date.now() - started} ms)\n`);
  return out;
}

/** Bytes on disk under `folder` and the packages in its node_modules (each folder with a package.json, nested ones included). */
function installed(folder: string): { bytes: number; packages: number } {
  let bytes = 0;
  let packages = 0;
  const walk = (at: string, inNodeModules: boolean) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) {
        const isPackage = inNodeModules && !entry.name.startsWith('@') && !entry.name.startsWith('.') && existsSync(path.join(full, 'package.json'));
        if (isPackage) packages += 1;
        walk(full, entry.name === 'node_modules' || (inNodeModules && entry.name.startsWith('@')));
      } else if (entry.isFile()) bytes += statSync(full).size;
    }
  };
  walk(path.join(folder, 'node_modules'), true);
  return { bytes, packages };
}

/** `npm pack` the folder into the smoke's own; the tarball's path. */
function pack(packageDir: string): string {
  const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', dir], { cwd: packageDir, encoding: 'utf8' }).trim().split('\n').at(-1)!;
  return path.join(dir, tarball);
}

/** Installs the tarballs in a fresh folder as a user would, and prints what that installed; the folder. */
function install(name: string, tarballs: string[]): string {
  const app = path.join(dir, `${name}-app`);
  mkdirSync(app);
  writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: `${name}-smoke`, private: true, version: '0.0.0' }));
  const packed = tarballs.map((tarball) => `${path.basename(tarball)} (${(statSync(tarball).size / 1e6).toFixed(1)} MB packed)`).join(' ');
  check(
    app,
    `${name}: npm install --omit=dev ${packed}`,
    'npm',
    ['install', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund', ...tarballs],
    (o) => o.status === 0,
  );
  const { bytes, packages } = installed(app);
  process.stdout.write(`     ${name}: installed ${(bytes / 1e6).toFixed(1)} MB in node_modules, ${packages} packages (itself included)\n`);
  return app;
}

/** The README's "Run your own job under a lease" example (TypeScript), importing the package. */
function exampleJob(): string {
  const source = readFileSync(path.join(ROOT, 'lib/jobs/example-squares/job.ts'), 'utf8').replace(`from '../../scheduler'`, `from '@leaseboard/client'`);
  if (!source.includes(`from '@leaseboard/client'`)) throw new Error('smoke:pack: the example no longer imports ../../scheduler');
  return source;
}

/**
 * A Node ESM user's TypeScript settings (skipLibCheck, as drizzle-orm's own declarations need). The
 * example is an ES module (.mts), as the package is: a CommonJS file would see drizzle-orm's
 * CommonJS declarations beside the package's ESM ones, two distinct types of the same table.
 */
const USER_TSCONFIG = {
  compilerOptions: { strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', noEmit: true, skipLibCheck: true, types: [] },
  files: ['job.mts'],
};

const RUN_EXAMPLE = `import { createPool, createReadOnlyPool, SchedulerRuntime, schedulerConfig } from '@leaseboard/client';
import { SQUARES_MIGRATION, squaresJob } from './job.mjs';

const url = process.env.DATABASE_URL;
const lease = process.argv[2];
const db = createPool(url);
const readDb = createReadOnlyPool(url);
await db.query(SQUARES_MIGRATION);
let completed;
const done = new Promise((resolve) => (completed = resolve));
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
`;

function smokeClient(tarball: string) {
  const app = install('client', [tarball]);
  const bin = path.join(app, 'node_modules/.bin/leaseboard');
  check(app, 'client: leaseboard --help', bin, ['--help'], (o) => o.status === 0 && /^ {2}run /m.test(o.stdout) && !/^ {2}start /m.test(o.stdout));
  check(app, 'client: leaseboard run --help', bin, ['run', '--help'], (o) => o.status === 0 && o.stdout.includes('exit codes'));
  check(app, 'client: leaseboard migrate', bin, ['migrate'], (o) => o.status === 0);
  check(
    app,
    "client: leaseboard run --once -- sh -c 'echo …'",
    bin,
    ['run', '--once', '--lease', `pack-smoke-${suffix}`, '--', 'sh', '-c', 'echo "packed run, epoch $LEASEBOARD_EPOCH"'],
    (o) => o.status === 0 && /packed run, epoch \d+/.test(o.stderr) && o.stdout.includes('"occurrence_completed"'),
  );
  const job = exampleJob();
  writeFileSync(path.join(app, 'job.mjs'), transformSync(job, { loader: 'ts', format: 'esm' }).code);
  writeFileSync(path.join(app, 'run-job.mjs'), RUN_EXAMPLE);
  check(
    app,
    "client: the README's example job with plain node, importing '@leaseboard/client'",
    process.execPath,
    ['run-job.mjs', `pack-squares-${suffix}`],
    (o) => o.stdout.includes('squares written: 1000'),
  );
  // The same example as TypeScript against the package's declarations (pg's types are the user's: @types/pg, an optional peer).
  writeFileSync(path.join(app, 'job.mts'), job);
  writeFileSync(path.join(app, 'tsconfig.json'), JSON.stringify(USER_TSCONFIG));
  const rootPackage = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
  const typesPg = `@types/pg@${rootPackage.devDependencies['@types/pg']}`;
  check(
    app,
    `client: npm install --no-save ${typesPg} (for the next check)`,
    'npm',
    ['install', '--no-save', '--prefer-offline', '--no-audit', '--no-fund', typesPg],
    (o) => o.status === 0,
  );
  const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
  check(
    app,
    "client: the example type-checks against the package's declarations (moduleResolution nodenext)",
    process.execPath,
    [tsc, '-p', '.'],
    (o) => o.status === 0,
  );
}

/** Polls `condition` every 100 ms until it holds or `withinMs` have passed since `since`; whether it held. */
async function until(condition: () => Promise<boolean> | boolean, since: number, withinMs: number): Promise<boolean> {
  while (Date.now() - since < withinMs) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

/** The housekeeping jobs the dashboard's server hosts (lib/host/hosted-jobs.ts), by lease. */
const HOSTED_LEASES = ['leaseboard-alerts', 'leaseboard-retention'];

/**
 * `npx leaseboard start` on a free port: /api/healthz within HEALTHZ_WITHIN_MS, the overview page
 * with our server's headers, the hosted jobs holding their leases; SIGTERM releases them.
 */
async function smokeStart(app: string, basePath: string) {
  const started = Date.now();
  const server = spawn('npx', ['leaseboard', 'start', '-p', '0'], {
    cwd: app,
    env: { ...process.env, DATABASE_URL: url },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out: Outcome = { status: null, stdout: '', stderr: '' };
  server.stdout.on('data', (chunk) => (out.stdout += chunk));
  server.stderr.on('data', (chunk) => (out.stderr += chunk));
  server.on('exit', (code) => (out.status = code));
  let closed = false;
  server.on('close', () => (closed = true));
  const origin = () => /listening on (http:\/\/\S+)/.exec(out.stdout)?.[1];
  const lines = (event: string) => HOSTED_LEASES.filter((lease) => out.stdout.includes(`job ${lease}: {"event":"${event}"`));
  let stopped = false;
  try {
    const healthy = await until(
      async () => origin() !== undefined && (await fetch(`${origin()}${basePath}/api/healthz`).catch(() => null))?.ok === true,
      started,
      HEALTHZ_WITHIN_MS,
    );
    if (!healthy) failed(`server: npx leaseboard start answers ${basePath}/api/healthz within ${HEALTHZ_WITHIN_MS / 1000} s`, out);
    process.stdout.write(`ok   server: npx leaseboard start answered ${basePath}/api/healthz ${Date.now() - started} ms after it was started\n`);
    const page = await fetch(`${origin()}${basePath}`);
    const html = await page.text();
    // Our server's, not Next's: every page carries a CSP with a nonce of its own (lib/host/security-headers.ts).
    const policy = page.headers.get('content-security-policy') ?? '';
    if (!page.ok || !html.includes('<html') || !policy.includes("'nonce-")) {
      failed(`server: the overview page (HTTP ${page.status}, CSP ${JSON.stringify(policy.slice(0, 80))})`, {
        ...out,
        stdout: `${out.stdout}\n--- page\n${html.slice(0, 2000)}`,
      });
    }
    process.stdout.write(`ok   server: the overview page, HTTP ${page.status}, ${html.length} bytes, with our server's CSP nonce\n`);
    if (!(await until(() => lines('acquired').length === HOSTED_LEASES.length, Date.now(), 15_000)))
      failed(`server: the hosted jobs acquire ${HOSTED_LEASES.join(', ')}`, out);
    process.stdout.write(`ok   server: the hosted jobs hold ${HOSTED_LEASES.join(', ')}\n`);
    // To the whole group: npx does not pass SIGTERM on. `closed` waits for the server's output too, not only for npx.
    process.kill(-server.pid!, 'SIGTERM');
    stopped = true;
    if (!(await until(() => closed, Date.now(), 15_000))) failed('server: SIGTERM stops it within 15 s', out);
    if (lines('released').length !== HOSTED_LEASES.length) failed("server: SIGTERM releases the hosted jobs' leases", out);
    process.stdout.write('ok   server: SIGTERM released them and stopped the server\n');
  } finally {
    if (!stopped || !closed) process.kill(-server.pid!, 'SIGKILL');
  }
}

async function smokeServer(tarball: string, basePath: string) {
  const app = install('server', [tarball]);
  check(
    app,
    'server: npx leaseboard --help',
    'npx',
    ['leaseboard', '--help'],
    (o) => o.status === 0 && /^ {2}start /m.test(o.stdout) && /^ {2}run /m.test(o.stdout),
  );
  check(app, 'server: npx leaseboard migrate', 'npx', ['leaseboard', 'migrate'], (o) => o.status === 0);
  // The base path is baked into the build: asking for another one is refused, naming both.
  const elsewhere = `${basePath}/elsewhere`;
  check(
    app,
    `server: LEASEBOARD_BASE_PATH=${elsewhere} npx leaseboard start is refused`,
    'sh',
    ['-c', `LEASEBOARD_BASE_PATH=${elsewhere} npx leaseboard start -p 0`],
    (o) => o.status === 2 && o.stderr.includes(`LEASEBOARD_BASE_PATH="${elsewhere}"`) && o.stderr.includes(`built for "${basePath}"`),
  );
  await smokeStart(app, basePath);
}

/** The e2e build, current and with its standalone output (a build from before that output existed is made again). */
async function e2eBuild(): Promise<string> {
  const distDir = path.join(ROOT, E2E_BUILD_ENV.LEASEBOARD_HARNESS_DIST_DIR);
  const log = (line: string) => process.stdout.write(`     ${line}\n`);
  await ensureE2eBuild(log);
  if (!existsSync(path.join(distDir, 'standalone/server.js'))) {
    rmSync(path.join(distDir, 'leaseboard-source-hash'), { force: true });
    await ensureE2eBuild(log);
  }
  return distDir;
}

async function main() {
  const started = Date.now();
  const distDir = await e2eBuild();
  const packages = await buildPackages({ nextDist: distDir });
  process.stdout.write(`ok   built both packages (${((Date.now() - started) / 1000).toFixed(0)} s, the dashboard's build included)\n`);
  const tarballs = { client: pack(packages.client), server: pack(packages.server) };
  smokeClient(tarballs.client);
  await smokeServer(tarballs.server, E2E_BUILD_ENV.LEASEBOARD_BASE_PATH ?? '');
  // Both name their command `leaseboard`; npm links one, and the client's hands over to the server's (packages/client/cli.ts).
  const both = install('both', [tarballs.client, tarballs.server]);
  check(
    both,
    'both in one project: npx leaseboard --help offers start',
    'npx',
    ['leaseboard', '--help'],
    (o) => o.status === 0 && /^ {2}start /m.test(o.stdout),
  );
  process.stdout.write(`smoke:pack: all passed in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
}

main()
  .catch((error: unknown) => {
    process.stdout.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(() => rmSync(dir, { recursive: true, force: true }));
