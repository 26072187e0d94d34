/**
 * `leaseboard config [--config FILE] [--json] [-p PORT] [-H HOST]`: the
 * effective configuration and where each value came from (default, file,
 * environment, flag), secrets redacted — checked exactly as `leaseboard
 * start` checks it, so a bad setting is found before a deploy.
 *
 * Beyond the schema it runs the checks start-up runs on the settings taken
 * together, with the same consequence: the identity settings and, with a
 * DATABASE_URL, the status service's (relations such as list age ≤ half the
 * poll) refuse; a hosted job whose settings do not hold together is a warning,
 * as start-up leaves that job out with a log line.
 *
 * Exit codes: 0 the configuration is valid (printed on stdout; warnings on
 * stderr); 2 it is not (every problem on stderr, each naming its setting), or
 * bad options.
 */
import { parseArgs } from 'node:util';
import { AuthConfigError, parseAuthConfig } from '../auth/config';
import { ConfigError, exportToEnvironment, loadConfig, type ResolvedConfig, showConfig } from '../config';
import { housekeepingJobs } from '../jobs';
import { EnvError, parseServerEnv } from '../server/env';

export const HELP = `usage: leaseboard config [--config FILE] [--json] [-p PORT] [-H HOST]

Prints every setting's effective value and its source: default < file (--config,
YAML or JSON) < environment < flag. Secrets are redacted. Refuses, as start-up does,
an unknown LEASEBOARD_* variable, an unknown file key and a value out of range.
The settings: docs/configuration.md.

exit codes: 0 valid; 2 a problem (named on stderr) or bad options.
`;

function fail(message: string): never {
  process.stderr.write(`config: ${message}\n`);
  process.exit(2);
}

/** What start-up checks of the settings taken together (scripts/serve.ts): refusals exit 2, left-out jobs warn. */
function checkTogether(resolved: ResolvedConfig): void {
  // The effective values as the started processes would see them: the environment, with the file's and the flags'.
  const env: Record<string, string | undefined> = { ...process.env };
  exportToEnvironment(resolved, env);
  const problems: string[] = [];
  const refuse = (check: () => unknown) => {
    try {
      check();
    } catch (error) {
      if (!(error instanceof AuthConfigError || error instanceof EnvError)) throw error;
      problems.push(error.message);
    }
  };
  refuse(() => parseAuthConfig(env));
  if (resolved.settings.databaseUrl) refuse(() => parseServerEnv(env));
  if (problems.length > 0) fail(problems.join('\n'));
  if (resolved.settings.hostJobs === 'off') return;
  for (const built of housekeepingJobs(env, () => {})) {
    if ('error' in built) process.stderr.write(`config: warning: the dashboard would leave ${built.job} out: ${built.error}\n`);
  }
}

export async function run(argv: string[]): Promise<void> {
  let values: { config?: string; json?: boolean; help?: boolean; port?: string; hostname?: string };
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        config: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        port: { type: 'string', short: 'p' },
        hostname: { type: 'string', short: 'H' },
      },
    }));
  } catch (error) {
    fail((error as Error).message);
  }
  if (values.help) {
    process.stdout.write(HELP);
    process.exit(0);
  }
  let resolved: ResolvedConfig;
  try {
    resolved = loadConfig({ configFile: values.config ?? null, flags: { port: values.port, host: values.hostname } });
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  checkTogether(resolved);
  const shown = showConfig(resolved);
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ file: values.config ?? null, settings: shown }, null, 2)}\n`);
    return;
  }
  const width = Math.max(...shown.map((s) => s.env.length));
  const valueWidth = Math.min(48, Math.max(...shown.map((s) => s.value.length)));
  const lines = shown.map((s) => `${s.env.padEnd(width)}  ${(s.value === '' ? '(unset)' : s.value).padEnd(valueWidth)}  ${s.source}`);
  process.stdout.write(`${'setting'.padEnd(width)}  ${'value'.padEnd(valueWidth)}  source\n${lines.join('\n')}\n`);
}
