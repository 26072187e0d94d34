/**
 * `npm run check:image -- IMAGE` (DATABASE_URL required, as root): the image scripts/build-image.ts
 * built, checked as it ships.
 *
 * - Its configuration: a numeric non-root user, entrypoint node on the package's bin, default
 *   command `start`, HOST=0.0.0.0, port 3000 exposed, the OCI labels (title, version, description).
 * - Its root filesystem (a container made from the image and mounted): node and the package are
 *   there; no TypeScript source, no test, no npm cache.
 * - Its entrypoint, run from that root filesystem under the image's uid, working directory and
 *   environment: `config` (HOST from the image), `migrate --help`, `migrate`, `scheduler --help`, `run --once`
 *   (the image's node as the program) and the default command,
 *   whose dashboard answers /api/healthz (under the base path the package was built with), serves
 *   the overview page and stops on SIGTERM.
 *
 * Why not `podman run`: on this kind of machine (cgroup v1 and v2 mounted side by side, "hybrid")
 * crun refuses to start any container ("cgroups in hybrid mode not supported"), so the entrypoint
 * runs with `unshare --root` instead — the same files, uid and environment, and the device files a
 * runtime would add, without a runtime.
 *
 * Prints one line per check; exit 0 when all pass, 1 on the first failure with the output that shows why.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { IMAGE } from './build-image';

const [image, url] = usage(process.argv[2], process.env.DATABASE_URL);
const HEALTHZ_WITHIN_MS = 15_000;

function usage(image: string | undefined, url: string | undefined): [string, string] {
  if (image && url) return [image, url];
  process.stderr.write('check:image: usage: DATABASE_URL=… npm run check:image -- IMAGE\n');
  process.exit(2);
}

function fail(what: string, detail = ''): never {
  throw new Error(`check:image: FAIL ${what}${detail ? `\n${detail.slice(-3000)}` : ''}`);
}

function ok(what: string) {
  process.stdout.write(`ok   ${what}\n`);
}

function buildah(args: string[]): string {
  return execFileSync('buildah', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
}

type ImageConfig = {
  User?: string;
  Entrypoint?: string[];
  Cmd?: string[];
  Env?: string[];
  ExposedPorts?: Record<string, unknown>;
  Labels?: Record<string, string>;
  WorkingDir?: string;
};

function checkConfig(): ImageConfig {
  const config = (JSON.parse(buildah(['inspect', '--type', 'image', image])) as { OCIv1: { config: ImageConfig } }).OCIv1.config;
  const expect = (what: string, holds: boolean) => holds || fail(what, JSON.stringify(config, null, 2));
  expect(`user: numeric, not root (${config.User})`, /^[1-9]\d*(:\d+)?$/.test(config.User ?? ''));
  expect('entrypoint: node on the package bin', JSON.stringify(config.Entrypoint) === JSON.stringify([IMAGE.node, IMAGE.bin]));
  expect('default command: start', JSON.stringify(config.Cmd) === JSON.stringify(['start']));
  expect('HOST=0.0.0.0', config.Env?.includes('HOST=0.0.0.0') === true);
  expect(`port ${IMAGE.port} exposed`, Object.keys(config.ExposedPorts ?? {}).includes(`${IMAGE.port}/tcp`));
  for (const label of ['title', 'version', 'description'])
    expect(`label org.opencontainers.image.${label}`, Boolean(config.Labels?.[`org.opencontainers.image.${label}`]));
  ok(`config: user ${config.User}, entrypoint ${config.Entrypoint!.join(' ')}, cmd ${config.Cmd!.join(' ')}, port ${IMAGE.port}, labels`);
  return config;
}

/** Every file under `dir`, relative to it. */
function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

function checkLayout(rootfs: string) {
  for (const needed of [IMAGE.node, IMAGE.bin, '/etc/passwd', '/tmp']) if (!existsSync(path.join(rootfs, needed))) fail(`layout: no ${needed}`);
  const all = files(rootfs);
  const unwanted = all.filter(
    (file) => (/\.tsx?$/.test(file) && !file.endsWith('.d.ts')) || /\.(test|spec)\.[cm]?[jt]sx?$/.test(file) || /(^|\/)(\.npm|_cacache)\//.test(file),
  );
  if (unwanted.length > 0) fail('layout: TypeScript sources, tests or an npm cache', unwanted.slice(0, 20).join('\n'));
  ok(`layout: ${IMAGE.node}, ${IMAGE.bin}; ${all.length} files, no TypeScript source, test or npm cache`);
}

/**
 * The device files a container runtime gives every container (the OCI default set), made in this
 * throwaway container's own layer: node opens /dev/null for a child's ignored stdio (`run`).
 */
function runtimeDevices(rootfs: string) {
  const devices: [string, number, number][] = [
    ['null', 1, 3],
    ['zero', 1, 5],
    ['full', 1, 7],
    ['random', 1, 8],
    ['urandom', 1, 9],
  ];
  mkdirSync(path.join(rootfs, 'dev'), { recursive: true });
  for (const [name, major, minor] of devices) execFileSync('mknod', ['-m', '666', path.join(rootfs, 'dev', name), 'c', String(major), String(minor)]);
}

/** The entrypoint with `args`, as the image runs it: root `rootfs`, its user, working directory and environment. */
function entrypoint(rootfs: string, config: ImageConfig, args: string[]) {
  const [uid, gid = uid] = config.User!.split(':') as [string, string?];
  const env = Object.fromEntries((config.Env ?? []).map((line): [string, string] => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
  const command = ['--root', rootfs, '--wd', config.WorkingDir ?? '/', '--setuid', uid, '--setgid', gid, ...config.Entrypoint!, ...args];
  // The image's environment only, not this process's: NODE_ENV is the image's (production).
  return { command: 'unshare', args: command, env: { NODE_ENV: 'production' as const, ...env, DATABASE_URL: url, PORT: '0' } };
}

function runEntrypoint(rootfs: string, config: ImageConfig, args: string[], expect: (stdout: string) => boolean) {
  const run = entrypoint(rootfs, config, args);
  const started = Date.now();
  const out = spawnSync(run.command, run.args, { env: run.env, encoding: 'utf8', timeout: 60_000 });
  if (out.status !== 0 || !expect(out.stdout)) fail(`leaseboard ${args.join(' ')} (exit ${out.status})`, `${out.stdout}\n${out.stderr}`);
  ok(`leaseboard ${args.join(' ')} (${Date.now() - started} ms)`);
}

async function checkStart(rootfs: string, config: ImageConfig) {
  const basePath = (JSON.parse(readFileSync(path.join(rootfs, path.dirname(IMAGE.bin), 'next-config.json'), 'utf8')) as { basePath?: string }).basePath ?? '';
  const run = entrypoint(rootfs, config, config.Cmd!);
  const started = Date.now();
  const server = spawn(run.command, run.args, { env: run.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  server.stdout.on('data', (chunk) => (output += chunk));
  server.stderr.on('data', (chunk) => (output += chunk));
  let closed = false;
  const exited = new Promise<number | null>((resolve) =>
    server.on('close', (code) => {
      closed = true;
      resolve(code);
    }),
  );
  const listeningPort = () => /listening on http:\/\/[^:]+:(\d+)/.exec(output)?.[1];
  try {
    let healthy = false;
    while (!healthy && Date.now() - started < HEALTHZ_WITHIN_MS && !closed) {
      const port = listeningPort();
      if (port) healthy = (await fetch(`http://127.0.0.1:${port}${basePath}/api/healthz`).catch(() => null))?.ok === true;
      if (!healthy) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (!healthy) fail(`the default command answers ${basePath}/api/healthz within ${HEALTHZ_WITHIN_MS / 1000} s`, output);
    ok(`the default command (start) answered ${basePath}/api/healthz ${Date.now() - started} ms after it was started`);
    // A page too: Next renders it as the image's user, from files that user cannot write.
    const page = await fetch(`http://127.0.0.1:${listeningPort()}${basePath}`);
    const html = await page.text();
    if (!page.ok || !html.includes('<html')) fail(`the overview page (HTTP ${page.status})`, `${output}\n--- page\n${html.slice(0, 2000)}`);
    ok(`the overview page: HTTP ${page.status}, ${html.length} bytes`);
    server.kill('SIGTERM');
    // Unreferenced: a pending timer would hold this process open after the last check.
    const code = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve('timeout'), 15_000).unref())]);
    if (code !== 0) fail(`SIGTERM stops the dashboard with exit 0 (got ${String(code)})`, output);
    ok('SIGTERM stopped it (exit 0)');
  } finally {
    if (!closed) server.kill('SIGKILL');
  }
}

async function main() {
  const started = Date.now();
  const config = checkConfig();
  const container = buildah(['from', '--quiet', '--pull-never', image]);
  try {
    const rootfs = buildah(['mount', container]);
    checkLayout(rootfs);
    runtimeDevices(rootfs);
    runEntrypoint(rootfs, config, ['config'], (stdout) => /HOST\s.*0\.0\.0\.0/.test(stdout));
    runEntrypoint(rootfs, config, ['migrate', '--help'], (stdout) => stdout.includes('usage'));
    runEntrypoint(rootfs, config, ['migrate'], () => true);
    runEntrypoint(rootfs, config, ['scheduler', '--help'], (stdout) => stdout.includes('--job'));
    // The image has no shell: its own node is the program `run` runs.
    const lease = `image-check-${Math.random().toString(36).slice(2, 8)}`;
    runEntrypoint(rootfs, config, ['run', '--once', '--lease', lease, '--', IMAGE.node, '-e', 'console.log("ran")'], (stdout) =>
      stdout.includes('"occurrence_completed"'),
    );
    await checkStart(rootfs, config);
  } finally {
    buildah(['rm', container]);
  }
  process.stdout.write(`check:image: all passed in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

main().catch((error: unknown) => {
  process.stdout.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
