/**
 * `leaseboard status [NAME | --selector S] [--json] [--timeout 5s] [--config FILE]`: the
 * schedulers' health for scripts and existing monitoring, as a
 * Nagios/Icinga plugin (./status-check.ts): exit 0 OK, 1 WARNING,
 * 2 CRITICAL, 3 UNKNOWN; one line on stdout, performance data after `|`.
 * Without NAME it judges the whole fleet, or with `--selector` the schedulers
 * a label selector matches (the worst health wins); with NAME, that scheduler. `--json` prints instead the API's own body for the same
 * question (the list, the detail, or the error), with the same exit code.
 *
 * It reads through the status service the dashboard uses (lib/server,
 * ./standalone.ts), on a read-only pool as the reader role — never a
 * projection of its own.
 *
 * Guarantees: it answers within about the timeout (`--timeout`, else
 * LEASEBOARD_READ_TIMEOUT), which bounds the connection and the read: a store
 * refused, unreachable or silent is UNKNOWN with one line naming why. Unlike
 * the other commands, bad usage exits 3 (UNKNOWN, the plugin convention: a
 * monitoring system reads 2 as CRITICAL), its message on stdout where the
 * monitoring system reads it. Nothing is written.
 */
import { parseArgs } from 'node:util';
import { ConfigError, exportToEnvironment, loadConfig, type ResolvedConfig, SETTINGS } from '../config';
import { parseSelector, type Selector } from '../limits/selector';
import { EnvError, parseServerEnv } from '../server/env';
import { openStatusReader, type StatusReader } from '../server/standalone';
import { type Check, fleetCheck, renderCheck, schedulerCheck, unknownCheck } from './status-check';
import { runningDatabaseUrl } from './running-database';

export const HELP = `usage: leaseboard status [NAME | --selector SELECTOR] [--json] [--timeout DURATION] [--config FILE]

The schedulers' health as a monitoring plugin (Nagios, Icinga, Sensu, Zabbix's
external checks): one line on stdout, performance data after "|", and the exit
code. Without NAME, the whole fleet (or with --selector the schedulers it
matches): the worst health wins, and the counts per health are the performance
data. With NAME, that scheduler, its reasons, and its
ages as performance data. Nothing is written; reads are read-only, as
LEASEBOARD_READER_ROLE when set.

options:
  -l, --selector S    only the schedulers whose labels match S, Kubernetes'
                      label-selector syntax: team=payments,env!=dev,
                      tier in (1,2), !legacy (as GET /api/v1/schedulers?selector=)
  --json              the API's own JSON instead (GET /api/v1/schedulers, or
                      /api/v1/schedulers/NAME, or its error); same exit code
  --timeout DURATION  bound on connecting and reading, e.g. 5s (default:
                      LEASEBOARD_READ_TIMEOUT, 2s; 100ms–30s)
  --config FILE       settings file (YAML or JSON), as leaseboard start takes
  --help              this text

exit codes (health → code):
  0 OK        progressing, idle
  1 WARNING   disabled (an operator's choice: not an alarm, kept visible)
  2 CRITICAL  stalled, no_leader
  3 UNKNOWN   unknown; the store unreadable or unreachable; no schedulers
              (none matching the selector); no scheduler NAME; bad usage
              (a malformed selector, named)
database: LEASEBOARD_READER_DATABASE_URL, else DATABASE_URL (as the reader role), else the
running demo's.
`;

function print(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** Bad usage or settings: UNKNOWN, named, on stdout (where a monitoring system reads). */
function usageError(message: string): never {
  print(renderCheck(unknownCheck(`status: ${message} (leaseboard status --help)`)));
  process.exit(3);
}

function parse(argv: string[]) {
  let parsed: { values: { json?: boolean; timeout?: string; config?: string; help?: boolean; selector?: string }; positionals: string[] };
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        json: { type: 'boolean' },
        timeout: { type: 'string' },
        config: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        selector: { type: 'string', short: 'l' },
      },
    });
  } catch (error) {
    usageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(HELP);
    process.exit(0);
  }
  if (positionals.length > 1) usageError(`one scheduler name at most, got ${positionals.length}`);
  const name = positionals[0] ?? null;
  let selector: Selection | null = null;
  if (values.selector !== undefined) {
    if (name !== null) usageError('--selector judges the schedulers it matches: give a NAME or a selector, not both');
    const parsed = parseSelector(values.selector);
    if (!parsed.ok) usageError(`--selector: ${parsed.message}`);
    selector = { text: values.selector.trim(), selector: parsed.selector };
  }
  return { name, selector, json: values.json === true, timeout: values.timeout ?? null, configFile: values.config ?? null };
}

/** The status service's settings, with --timeout as the read timeout; bad ones are usage errors, named. */
function settings(configFile: string | null, timeout: string | null) {
  let resolved: ResolvedConfig;
  try {
    resolved = loadConfig({ configFile });
  } catch (error) {
    if (error instanceof ConfigError) usageError(error.message.replace(/\s*\n\s*/g, '; '));
    throw error;
  }
  const env: Record<string, string | undefined> = { ...process.env };
  exportToEnvironment(resolved, env);
  // The reads need only the reader's login: a monitoring host may be given nothing else.
  const { databaseUrl, readerDatabaseUrl } = resolved.settings;
  env.DATABASE_URL =
    readerDatabaseUrl ??
    databaseUrl ??
    runningDatabaseUrl('reader') ??
    usageError('no database: set LEASEBOARD_READER_DATABASE_URL or DATABASE_URL, or start `npm run demo` first');
  if (timeout !== null) {
    try {
      SETTINGS.readTimeout.parse(timeout);
    } catch (error) {
      usageError(`--timeout: ${(error as Error).message}`);
    }
    env[SETTINGS.readTimeout.env] = timeout;
  }
  try {
    return parseServerEnv(env);
  } catch (error) {
    if (error instanceof EnvError) usageError(error.message);
    throw error;
  }
}

/** A selector as the user wrote it (for the line) and parsed (for the read). */
interface Selection {
  text: string;
  selector: Selector;
}

async function ask(reader: StatusReader, name: string | null, selection: Selection | null): Promise<{ check: Check; body: unknown }> {
  if (name === null) {
    const list = await reader.list(selection?.selector);
    // An empty selector selects everything: the fleet's own line.
    const shown = selection === null || selection.selector.length === 0 ? null : selection.text;
    return { check: fleetCheck(list, reader.lastError(), shown), body: list };
  }
  const detail = await reader.detail(name);
  if (detail.ok) return { check: schedulerCheck(detail.value), body: detail.value };
  const { code, message } = detail.error;
  const body = { error: { code, message } };
  switch (code) {
    case 'unknown_scheduler':
      return { check: unknownCheck(`no scheduler ${JSON.stringify(name)}`), body };
    case 'store_unreadable':
      return { check: unknownCheck(`${message} (${reader.lastError() ?? 'unknown error'}): ${name} unknown`), body };
    default:
      // A name the API refuses (400) is bad usage; busy cannot happen for one read, but is UNKNOWN too.
      return { check: unknownCheck(message), body };
  }
}

export async function run(argv: string[]): Promise<void> {
  const options = parse(argv);
  const env = settings(options.configFile, options.timeout);
  const reader = openStatusReader(env, { applicationName: 'leaseboard-status' });
  const { check, body } = await ask(reader, options.name, options.selector);
  print(options.json ? JSON.stringify(body, null, 2) : renderCheck(check));
  // A connection attempt to a silent host lingers until its connect timeout: do not wait for it.
  await Promise.race([reader.close().catch(() => {}), new Promise((resolve) => setTimeout(resolve, 200).unref())]);
  process.exit(check.code);
}
