/**
 * Builds the dashboard for production only when its sources changed: a
 * content hash of everything the build reads (plus the base path) is kept
 * beside the build, so a second `npm run demo` starts in seconds.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseBasePath } from '../../lib/api/base-path';

const INPUTS = ['app', 'components', 'lib', 'public', 'next.config.js', 'package-lock.json', 'tsconfig.json'];
const SKIP = /\.(unit|int)\.test\.ts$|\/testing\//;

function files(root: string, entry: string): string[] {
  const full = path.join(root, entry);
  if (!existsSync(full)) return [];
  if (statSync(full).isFile()) return [entry];
  return readdirSync(full)
    .sort()
    .flatMap((child) => files(root, path.join(entry, child)))
    .filter((file) => !SKIP.test(file));
}

function sourceHash(root: string, env: NodeJS.ProcessEnv = process.env): string {
  const hash = createHash('sha256');
  hash.update(`basePath=${parseBasePath(env.LEASEBOARD_BASE_PATH)}\n`);
  for (const file of INPUTS.flatMap((entry) => files(root, entry))) hash.update(file).update(readFileSync(path.join(root, file)));
  return hash.digest('hex');
}

function runNext(root: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  return spawn(process.execPath, [path.join(root, 'node_modules/next/dist/bin/next'), ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * The production dashboard server (scripts/serve.ts: loopback by default, peer
 * stamps, security headers, hosted jobs). It stops by itself when the process
 * that started it is gone (its stdin closes), so a killed demo or test run
 * leaves no server behind.
 */
export function runDashboard(root: string, args: string[], options: { env?: NodeJS.ProcessEnv; detached?: boolean } = {}) {
  return spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/serve.ts'), ...args], {
    cwd: root,
    env: { ...(options.env ?? process.env), NODE_ENV: 'production', LEASEBOARD_HARNESS_EXIT_WITH_PARENT: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: options.detached ?? false,
  });
}

/**
 * Runs `next build` unless the last build in the same dist dir was of the
 * same sources and base path. `env` is the build's environment (e.g. with
 * LEASEBOARD_BASE_PATH and LEASEBOARD_HARNESS_DIST_DIR).
 */
export async function ensureBuild(root: string, log: (line: string) => void, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const distDir = path.join(root, env.LEASEBOARD_HARNESS_DIST_DIR ?? '.next');
  const marker = path.join(distDir, 'leaseboard-source-hash');
  const hash = sourceHash(root, env);
  if (existsSync(marker) && readFileSync(marker, 'utf8') === hash && existsSync(path.join(distDir, 'BUILD_ID'))) {
    log(`dashboard: production build in ${path.basename(distDir)} is current`);
    return;
  }
  log(`dashboard: building for production into ${path.basename(distDir)} (next build, ~30–60 s; only when sources change)…`);
  const started = Date.now();
  const build = runNext(root, ['build'], { ...env, NEXT_TELEMETRY_DISABLED: '1' });
  let output = '';
  build.stdout.on('data', (chunk) => (output += chunk));
  build.stderr.on('data', (chunk) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => build.on('exit', resolve));
  if (code !== 0) throw new Error(`next build failed (exit ${code}):\n${output.slice(-4_000)}`);
  writeFileSync(marker, hash);
  log(`dashboard: built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
