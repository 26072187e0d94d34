/**
 * `leaseboard config [--config FILE] [--json] [-p PORT] [-H HOST]`: the
 * effective configuration and where each value came from (default, file,
 * environment, flag), secrets redacted — checked exactly as `leaseboard
 * start` checks it, so a bad setting is found before a deploy.
 *
 * Exit codes: 0 the configuration is valid (printed on stdout); 2 it is not
 * (every problem on stderr, each naming its setting), or bad options.
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, showConfig } from '../config';

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
  let shown;
  try {
    const resolved = loadConfig({ configFile: values.config ?? null, flags: { port: values.port, host: values.hostname } });
    shown = showConfig(resolved);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ file: values.config ?? null, settings: shown }, null, 2)}\n`);
    return;
  }
  const width = Math.max(...shown.map((s) => s.env.length));
  const valueWidth = Math.min(48, Math.max(...shown.map((s) => s.value.length)));
  const lines = shown.map((s) => `${s.env.padEnd(width)}  ${(s.value === '' ? '(unset)' : s.value).padEnd(valueWidth)}  ${s.source}`);
  process.stdout.write(`${'setting'.padEnd(width)}  ${'value'.padEnd(valueWidth)}  source\n${lines.join('\n')}\n`);
}
