/**
 * The environment `leaseboard run` gives its child: an allow-list, never the
 * runner's whole environment. The runner holds Leaseboard's secrets — its
 * database URLs (with passwords), the operator and archive tokens — and
 * whatever else its own shell had; the child is any program, and gets only:
 *
 * - PATH, HOME, LANG, LC_*, TZ, USER, TMPDIR (to run at all, in the user's
 *   locale and zone);
 * - the variables named with `--pass-env` (the job's own settings);
 * - DATABASE_URL only with `--pass-database-url`;
 * - LEASEBOARD_LEASE, LEASEBOARD_EPOCH, LEASEBOARD_OCCURRENCE, set per
 *   occurrence by ./job.ts.
 *
 * Guarantees: pure; a name of one of Leaseboard's secret settings (lib/config,
 * `secret`), or DATABASE_URL, cannot be passed with `--pass-env`
 * (`passEnvRefusal` says why).
 */
import { SETTINGS } from '../../config';

/** What every child gets, when the runner has it. */
const CHILD_BASE_VARIABLES = ['PATH', 'HOME', 'LANG', 'TZ', 'USER', 'TMPDIR'] as const;
const LOCALE = /^LC_[A-Z]+$/;
const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

const SECRET_NAMES = new Set<string>(Object.values(SETTINGS).flatMap((setting) => (setting.secret ? [setting.env] : [])));

/** Why `name` may not be passed with --pass-env, or null when it may. */
export function passEnvRefusal(name: string): string | null {
  if (!NAME.test(name)) return `${JSON.stringify(name.slice(0, 40))} is not a variable name`;
  if (name === 'DATABASE_URL') return 'DATABASE_URL is a secret of Leaseboard: use --pass-database-url to give it to the child on purpose';
  if (SECRET_NAMES.has(name)) return `${name} is a secret of Leaseboard's (a database URL, token or password): never passed to a child`;
  return null;
}

/** The child's environment (before its per-occurrence LEASEBOARD_* variables) from the runner's. */
export function childEnvironment(runner: NodeJS.ProcessEnv, options: { pass: readonly string[]; databaseUrl: string | null }): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(runner)) {
    if (value === undefined) continue;
    if ((CHILD_BASE_VARIABLES as readonly string[]).includes(name) || LOCALE.test(name) || options.pass.includes(name)) env[name] = value;
  }
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  return env;
}
