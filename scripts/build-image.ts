/**
 * `npm run build:image [-- --tag NAME]`: the container image of the `leaseboard` package — the
 * dashboard and every command, one image — built with buildah FROM SCRATCH (no base image to pull,
 * no Docker daemon): the package as npm installs it, and this machine's Node runtime copied in.
 * Needs packages/server/dist (`npm run build:packages`; CI reuses the one `npm run smoke:pack`
 * built) and root or a working rootless buildah. Tags `leaseboard:VERSION` unless `--tag` names
 * another; prints the image's size. The Dockerfile at the top level builds the same image for
 * people with Docker.
 *
 * The root filesystem:
 *   /opt/leaseboard            the packed package (`npm pack` of dist, unpacked as npm installs it:
 *                              it has no npm dependencies, what the dashboard loads is inside it)
 *   /usr/local/bin/node        process.execPath (its symbols stripped), with the shared libraries `ldd` lists
 *   /etc/passwd, /etc/group    root and `leaseboard` (IMAGE_UID), whom the image runs as
 *   /tmp                       world-writable, sticky
 * No shell, no npm, no CA bundle (Node carries its own root certificates), no tzdata (times are UTC).
 *
 * Guarantees: the image's entrypoint is node on the package's bin, its default command `start`, its
 * user numeric and not root, HOST=0.0.0.0 (a container's port is reached from outside it), port
 * 3000 exposed; exit 1 naming the step that failed. scripts/image-check.ts checks all of this.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const ROOT = path.resolve(__dirname, '..');
const PACKAGE_DIST = path.join(ROOT, 'packages/server/dist');

/** What the image is, shared with the check and kept equal to the Dockerfile's. */
export const IMAGE = {
  uid: 10001,
  home: '/opt/leaseboard',
  node: '/usr/local/bin/node',
  bin: '/opt/leaseboard/app/bin/leaseboard.cjs',
  port: 3000,
  env: { NODE_ENV: 'production', HOST: '0.0.0.0' } as Record<string, string>,
} as const;

/** The OCI labels, with `org.opencontainers.image.version` (the package's) beside them. */
export const IMAGE_LABELS = {
  'org.opencontainers.image.title': 'leaseboard',
  'org.opencontainers.image.description': 'Leaseboard: the status dashboard and the leaseboard command (start, run, scheduler, migrate, config)',
} as const;

function log(line: string) {
  process.stdout.write(`build:image: ${line}\n`);
}

function run(command: string, args: string[], options: { cwd?: string } = {}): string {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024, ...options }).trim();
  } catch (error) {
    const failed = error as { stderr?: string; message: string };
    throw new Error(`build:image: ${command} ${args.slice(0, 3).join(' ')}…: ${(failed.stderr || failed.message).trim()}`);
  }
}

/** The shared libraries a program loads, as `ldd` lists them (the vDSO has no file). */
function sharedLibraries(program: string): string[] {
  return [...run('ldd', [program]).matchAll(/(?:=>\s*)?(\/\S+)\s+\(0x/g)].map((match) => match[1]!);
}

/** Copies `file` (links followed) to the same path under `rootfs`. */
function place(rootfs: string, file: string, at = file) {
  const target = path.join(rootfs, at);
  mkdirSync(path.dirname(target), { recursive: true });
  copyFileSync(realpathSync(file), target);
  chmodSync(target, 0o755);
}

/** Node's symbol table is for debuggers, not for running it: 13 of its 99 MB here. Left as is where binutils' strip is missing. */
function stripSymbols(file: string) {
  const before = statSync(file).size;
  try {
    execFileSync('strip', ['--strip-unneeded', file], { stdio: 'ignore' });
  } catch {
    log('node: no strip (binutils) on this machine: node copied with its symbols');
    return;
  }
  log(`node: symbols stripped, ${(before / 1e6).toFixed(0)} → ${(statSync(file).size / 1e6).toFixed(0)} MB`);
}

function stageRootfs(rootfs: string, scratch: string): string {
  const tarball = run('npm', ['pack', '--silent', '--pack-destination', scratch], { cwd: PACKAGE_DIST }).split('\n').at(-1)!;
  const version = (JSON.parse(readFileSync(path.join(PACKAGE_DIST, 'package.json'), 'utf8')) as { version: string }).version;
  mkdirSync(path.join(rootfs, IMAGE.home), { recursive: true });
  run('tar', ['-xzf', path.join(scratch, tarball), '-C', path.join(rootfs, IMAGE.home), '--strip-components=1', '--no-same-owner']);
  const node = realpathSync(process.execPath);
  place(rootfs, node, IMAGE.node);
  stripSymbols(path.join(rootfs, IMAGE.node));
  for (const library of sharedLibraries(node)) place(rootfs, library);
  mkdirSync(path.join(rootfs, 'etc'));
  writeFileSync(path.join(rootfs, 'etc/passwd'), `root:x:0:0:root:/root:/sbin/nologin\nleaseboard:x:${IMAGE.uid}:${IMAGE.uid}:leaseboard:/tmp:/sbin/nologin\n`);
  writeFileSync(path.join(rootfs, 'etc/group'), `root:x:0:\nleaseboard:x:${IMAGE.uid}:\n`);
  mkdirSync(path.join(rootfs, 'tmp'));
  chmodSync(path.join(rootfs, 'tmp'), 0o1777);
  return version;
}

/** The id of the image called `name` now, if any. */
function previousImage(name: string): string | undefined {
  try {
    return execFileSync('buildah', ['images', '--quiet', '--no-trunc', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || undefined;
  } catch {
    return undefined;
  }
}

export function buildImage(tag?: string): string {
  if (!existsSync(path.join(PACKAGE_DIST, 'app/bin/leaseboard.cjs'))) {
    throw new Error(`build:image: no ${path.relative(ROOT, PACKAGE_DIST)}: run npm run build:packages first`);
  }
  const started = Date.now();
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'leaseboard-image-'));
  let container: string | undefined;
  try {
    const rootfs = path.join(scratch, 'rootfs');
    const version = stageRootfs(rootfs, scratch);
    const name = tag ?? `leaseboard:${version}`;
    container = run('buildah', ['from', '--quiet', 'scratch']);
    run('buildah', ['copy', '--quiet', container, `${rootfs}/`, '/']);
    const labels = { ...IMAGE_LABELS, 'org.opencontainers.image.version': version };
    run('buildah', [
      'config',
      '--user',
      `${IMAGE.uid}:${IMAGE.uid}`,
      '--workingdir',
      IMAGE.home,
      '--entrypoint',
      JSON.stringify([IMAGE.node, IMAGE.bin]),
      '--cmd',
      'start',
      '--port',
      `${IMAGE.port}/tcp`,
      ...Object.entries(IMAGE.env).flatMap(([key, value]) => ['--env', `${key}=${value}`]),
      ...Object.entries(labels).flatMap(([key, value]) => ['--label', `${key}=${value}`]),
      container,
    ]);
    const previous = previousImage(name);
    run('buildah', ['commit', '--quiet', '--rm', container, name]);
    container = undefined;
    // The image this name left behind, nameless now: removed, or every build would keep one.
    if (previous !== undefined && previous !== run('buildah', ['images', '--quiet', '--no-trunc', name])) run('buildah', ['rmi', previous]);
    const size = run('buildah', ['images', '--format', '{{.Size}}', name]);
    log(`${name}: ${size} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    return name;
  } finally {
    if (container !== undefined) run('buildah', ['rm', container]);
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (require.main === module) {
  let tag: string | undefined;
  try {
    ({ tag } = parseArgs({ options: { tag: { type: 'string' } }, strict: true }).values);
  } catch (error) {
    process.stderr.write(`build:image: ${(error as Error).message}\n`);
    process.exit(2);
  }
  try {
    buildImage(tag);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  }
}
