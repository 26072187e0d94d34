/**
 * Where the Prometheus tools are on this machine (Debian packages
 * `prometheus` and `prometheus-alertmanager`, which CI installs).
 *
 * Guarantees: `findBinary` returns the first existing candidate, or null;
 * `requireBinary` throws a message that says what to install.
 * Non-guarantees: does not check versions (promtool ≥ 2.42 is needed for
 * `keep_firing_for`).
 */
import { existsSync } from 'node:fs';

export interface Tool {
  /** Environment variable that may point at the binary. */
  env: string;
  candidates: readonly string[];
  debianPackage: string;
}

export const PROMTOOL: Tool = { env: 'PROMTOOL_BIN', candidates: ['/usr/bin/promtool', '/usr/local/bin/promtool'], debianPackage: 'prometheus' };
export const AMTOOL: Tool = { env: 'AMTOOL_BIN', candidates: ['/usr/bin/amtool', '/usr/local/bin/amtool'], debianPackage: 'prometheus-alertmanager' };
export const ALERTMANAGER: Tool = {
  env: 'ALERTMANAGER_BIN',
  candidates: ['/usr/bin/prometheus-alertmanager', '/usr/bin/alertmanager', '/usr/local/bin/alertmanager'],
  debianPackage: 'prometheus-alertmanager',
};

export function findBinary(tool: Tool, env: Readonly<Record<string, string | undefined>> = process.env): string | null {
  const own = env[tool.env];
  if (own) return existsSync(own) ? own : null;
  return tool.candidates.find((p) => existsSync(p)) ?? null;
}

export function installHint(tool: Tool): string {
  return `install the Debian package \`${tool.debianPackage}\` (apt-get install -y ${tool.debianPackage}) or set ${tool.env}`;
}

export function requireBinary(tool: Tool): string {
  const found = findBinary(tool);
  if (found === null) throw new Error(`${tool.candidates[0]} not found: ${installHint(tool)}`);
  return found;
}
