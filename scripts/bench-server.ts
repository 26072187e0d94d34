/**
 * For the benches that need the real dashboard (bench:ui, bench:http): the
 * production build, and the real server (scripts/serve.ts: our node:http
 * server in front of Next, with the security headers and CSP nonces) on a
 * free loopback port, against a database of their own.
 *
 * Guarantees: `ensureBuild` reuses `.next` unless `--build` is passed or
 * there is none, and says which base path the build has; `startServer`
 * resolves once the server answers /api/healthz (60 s at most) and its
 * `stop` ends the whole process group.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '../db/free-port';

export const ROOT = path.resolve(__dirname, '..');

function buildBasePath(): string | null {
  const manifest = path.join(ROOT, '.next', 'required-server-files.json');
  if (!existsSync(path.join(ROOT, '.next', 'BUILD_ID')) || !existsSync(manifest)) return null;
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { config?: { basePath?: string } }).config?.basePath ?? '';
}

/** The production build's base path, building first when needed. */
export function ensureBuild(log: (line: string) => void): string {
  const existing = buildBasePath();
  if (existing !== null && !process.argv.includes('--build')) {
    log(`build: reusing .next (base path "${existing}"); pass --build to rebuild`);
    return existing;
  }
  log('build: next build …');
  const result = spawnSync(process.execPath, [require.resolve('next/dist/bin/next'), 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`bench: next build exited with ${result.status}`);
  return buildBasePath() ?? '';
}

export interface RunningServer {
  /** With the base path. */
  url: string;
  process: ChildProcess;
  stop(): void;
}

/** scripts/serve.ts in production mode (as `npm start` runs it), on a free loopback port. */
export async function startServer(databaseUrl: string, basePath: string, env: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [require.resolve('tsx/cli'), path.join(ROOT, 'scripts', 'serve.ts'), '-p', String(port), '-H', '127.0.0.1'], {
    cwd: ROOT,
    detached: true,
    stdio: 'ignore',
    env: {
      ...process.env,
      NODE_ENV: 'production',
      NODE_OPTIONS: '--max-semi-space-size=64',
      DATABASE_URL: databaseUrl,
      LEASEBOARD_BASE_PATH: basePath,
      NEXT_PUBLIC_LEASEBOARD_BASE_PATH: basePath,
      ...env,
    },
  });
  const stop = () => {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // already gone
    }
  };
  const url = `http://127.0.0.1:${port}${basePath}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${url}/api/healthz`)).status < 500) return { url, process: child, stop };
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // already gone
  }
  throw new Error('bench: the dashboard server did not answer within 60 s');
}
