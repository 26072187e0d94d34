/**
 * The suite's own production build: base path /ops/leaseboard, dist dir
 * .next-e2e, rebuilt only when its sources change (examples/demo/next-build.ts).
 * The global setup calls it; `npm run build:e2e` makes it ahead of a run, so
 * that CI builds before, not during, work that runs beside the browser tier.
 */
import path from 'node:path';
import { ensureBuild } from '../../examples/demo/next-build';
import { E2E_BASE_PATH } from './e2e-env';

export const E2E_BUILD_ENV: NodeJS.ProcessEnv & { LEASEBOARD_HARNESS_DIST_DIR: string } = {
  ...process.env,
  LEASEBOARD_BASE_PATH: E2E_BASE_PATH,
  LEASEBOARD_HARNESS_DIST_DIR: '.next-e2e',
};

const ROOT = path.resolve(__dirname, '../..');

export function ensureE2eBuild(log: (line: string) => void = (line) => console.log(`[e2e] ${line}`)): Promise<void> {
  // With Next's standalone output beside it, which `npm run smoke:pack` packs instead of building again.
  // The build's environment only: a server started with it would warn that `next start` does not serve that output.
  return ensureBuild(ROOT, log, { ...E2E_BUILD_ENV, LEASEBOARD_HARNESS_STANDALONE: '1' });
}

if (require.main === module) {
  ensureE2eBuild().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
