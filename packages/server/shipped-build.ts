/**
 * The dashboard build the `leaseboard` package ships: Next's standalone output, made by
 * scripts/build-packages.ts. Next's own standalone server.js hands the build's configuration to Next
 * through __NEXT_PRIVATE_STANDALONE_CONFIG (next/dist/server/config.js then reads no next.config.js,
 * which is not shipped); our server (lib/cli/start.ts) does the same before it loads Next.
 *
 * Guarantees: the base path is the one the build baked in — LEASEBOARD_BASE_PATH, when set, must
 * equal it (else exit 2, naming both), and is set to it when unset, so the server's own routes
 * (healthz, metrics, the list) answer where the pages are.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseBasePath } from '../../lib/api/base-path';

/** Written by scripts/build-packages.ts beside the bundled CLI. */
export const SHIPPED_CONFIG_FILE = 'next-config.json';

export function applyShippedBuild(dir: string): void {
  const json = readFileSync(path.join(dir, SHIPPED_CONFIG_FILE), 'utf8');
  const basePath = (JSON.parse(json) as { basePath?: string }).basePath ?? '';
  const asked = process.env.LEASEBOARD_BASE_PATH;
  if (asked !== undefined && parseBasePath(asked) !== basePath) {
    process.stderr.write(
      `serve: LEASEBOARD_BASE_PATH=${JSON.stringify(asked)}, but this package's dashboard was built for ${JSON.stringify(basePath)} (a base path is baked in at build time)\n`,
    );
    process.exit(2);
  }
  process.env.LEASEBOARD_BASE_PATH = basePath;
  process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = json;
}
