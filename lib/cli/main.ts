/**
 * `leaseboard COMMAND [options…]`: the composition root and the package's one
 * command (`bin/leaseboard.cjs`). The runtime (lib/scheduler) runs any job and
 * knows none; the jobs (lib/jobs) know the runtime only through its public
 * entry; this is the one place above both that puts a named job into a
 * runtime and a process around it. The dashboard's own process, which hosts
 * the housekeeping jobs, is the other root (lib/host).
 *
 * Two kinds of command, each loaded only when named (no command pays for
 * loading another's code):
 * - a module of lib/cli with `run(argv)` (`run`, `scheduler`, `config`, `status`, `maintenance`, `tokens`);
 * - a program of the repository (`start`, `migrate`, `alerts`,
 *   `intent`, `failover-drill`), run in this process with the arguments after
 *   its name — the same program its `npm run …` name runs.
 * Adding one is one line in COMMANDS, with its help text.
 *
 * Guarantees: `leaseboard COMMAND --help` prints the command's usage and exit
 * codes on stdout and exits 0 (a module command answers it itself); no
 * command, or an unknown one, prints the commands on stderr and exits 2; a
 * command's own bad options: its message on stderr, exit 2 — except `status`,
 * a monitoring plugin, whose bad usage is UNKNOWN (3) on stdout, as a
 * monitoring system reads it (2 would page as CRITICAL). Lint keeps
 * everything else in lib from importing this folder. Tracing (lib/telemetry)
 * is set up first, before any command loads `pg`.
 */
import '../telemetry/register';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The package's root: programs are found relative to it, wherever it is installed. */
const ROOT = path.resolve(__dirname, '../..');

export type Command =
  | {
      /** One line for the usage text. */
      readonly summary: string;
      /** The command's module; its `run` gets the arguments after the command's name, and answers `--help` itself. */
      readonly load: () => Promise<{ run(argv: string[]): Promise<void> }>;
    }
  | {
      readonly summary: string;
      /** A program of the repository (relative to its root), run in this process. */
      readonly program: string;
      /** `leaseboard COMMAND --help`: usage and exit codes. */
      readonly help: string;
      /** Environment defaults the program's `npm run …` name sets. */
      readonly env?: Readonly<Record<string, string>>;
    };

export const COMMANDS: Readonly<Record<string, Command>> = {
  run: { summary: 'run any command once per cadence slot under a lease (the exec runner)', load: () => import('./run') },
  scheduler: { summary: 'run one named job (--job NAME) under its lease, one JSON line per event', load: () => import('./scheduler') },
  config: { summary: 'print the effective configuration and where each value came from; refuse a bad one', load: () => import('./config') },
  status: { summary: "the schedulers' health as a Nagios/Icinga check (exit 0/1/2/3, perfdata) or the API's JSON", load: () => import('./status') },
  maintenance: {
    summary: 'list, schedule or cancel maintenance windows (by selector or names; audited)',
    load: () => import('./maintenance'),
  },
  tokens: {
    summary: 'list, create or revoke service tokens (scoped, shown once, audited) with the actions login',
    load: () => import('./tokens'),
  },
  start: {
    summary: 'the dashboard server, production build (npm start)',
    program: 'scripts/serve.ts',
    env: { NODE_ENV: 'production' },
    help: `usage: leaseboard start [--config FILE] [-p PORT] [-H HOST]
The dashboard's production server, on 127.0.0.1 unless HOST is set: from the repository after \`next build\`;
from the leaseboard package on the build it ships.
Hosts the alert evaluator and the retention pruner when DATABASE_URL is set.
Settings: defaults < --config FILE (YAML or JSON) < environment < flags; a mistyped LEASEBOARD_
variable, an unknown file key or a value out of range stops it, named (docs/configuration.md).
Exit codes: 0 stopped by SIGTERM/SIGINT; 1 the stop overran its deadline; 2 bad options or settings.
`,
  },
  migrate: {
    summary: 'apply the database migrations to DATABASE_URL (npm run db:migrate)',
    program: 'db/migrate-cli.ts',
    help: `usage: DATABASE_URL=… leaseboard migrate
Applies every migration not yet applied (idempotent; the demo runs it, \`leaseboard start\` does not). Safe to run
several at once, directly or through PgBouncer (one transaction under a transaction-level lock).
Exit codes: 0 migrated; 1 a migration failed; 2 no DATABASE_URL.
`,
  },
  alerts: {
    summary: 'alert rules, promtool tests, Alertmanager config, rule modes (npm run alerts)',
    program: 'scripts/alerts.ts',
    help: `usage: leaseboard alerts rules [--out FILE]
       leaseboard alerts rule-tests --out DIR [GOLDEN_FILE …]
       leaseboard alerts alertmanager-config [--out FILE] [--webhook URL] [--team NAME]…
       leaseboard alerts mode --rule R [--scheduler S] --mode on|shadow|off --by WHO --reason WHY
Exit codes: 0 done (also: already in that mode); 2 usage, bad configuration, unknown rule or scheduler.
`,
  },
  intent: {
    summary: "an operator's audited choice: disable or enable a scheduler, or every one a selector matches (npm run intent)",
    program: 'scripts/intent.ts',
    help: `usage: leaseboard intent (--lease NAME | --selector 'team=payments,env!=dev') (--disable | --enable) --by WHO --reason WHY
A disabled scheduler drains its occurrence in flight and releases its lease. Audited, one row per scheduler;
with --selector, every match changes in one transaction, under one reason (Kubernetes label-selector syntax).
Database: LEASEBOARD_ACTIONS_DATABASE_URL, else DATABASE_URL, else the running demo's.
Exit codes: 0 recorded (or already so); 2 bad input, or a selector that matches nothing (nothing written).
`,
  },
  'failover-drill': {
    summary: 'the authority through real database failovers (npm run failover-drill)',
    program: 'scripts/failover-drill.ts',
    help: `usage: leaseboard failover-drill --async|--sync [--strict] [--rounds N]
Builds a primary and a streaming standby from this machine's PostgreSQL binaries and fails over N times.
Exit codes: 0 no repeated epoch, no accepted stale write; 1 either happened (or the drill failed); 2 bad arguments.
`,
  },
};

/**
 * What a command line is dispatched over: by default the repository's commands, whose programs are
 * imported from their files. A package's entry (packages/…/cli.ts) passes its own subset, with each
 * program imported by a literal specifier, so that its bundle holds the programs it offers.
 */
export interface Dispatch {
  commands: Readonly<Record<string, Command>>;
  loadProgram: (program: string) => Promise<unknown>;
}

const REPOSITORY: Dispatch = { commands: COMMANDS, loadProgram: (program) => import(pathToFileURL(path.join(ROOT, program)).href) };

/** A package's dispatch: the commands named, each program among them imported by its entry in `programs`. */
export function packageDispatch(names: readonly string[], programs: Readonly<Record<string, () => Promise<unknown>>>): Dispatch {
  const commands: Record<string, Command> = {};
  for (const name of names) {
    const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name]! : null;
    if (command === null) throw new Error(`packageDispatch: no command ${JSON.stringify(name)}`);
    if ('program' in command && !Object.hasOwn(programs, command.program)) throw new Error(`packageDispatch: no loader for ${command.program}`);
    commands[name] = command;
  }
  return { commands, loadProgram: (program) => programs[program]!() };
}

function usage(commands: Readonly<Record<string, Command>>): string {
  const width = Math.max(...Object.keys(commands).map((name) => name.length));
  const lines = Object.entries(commands).map(([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`);
  return `usage: leaseboard COMMAND [options]   (leaseboard COMMAND --help)\ncommands:\n${lines.join('\n')}\n`;
}

export async function main(argv: string[], { commands, loadProgram }: Dispatch = REPOSITORY): Promise<void> {
  const [name, ...rest] = argv;
  if (name === '--help' || name === '-h') {
    process.stdout.write(usage(commands));
    process.exit(0);
  }
  const command = name !== undefined && Object.hasOwn(commands, name) ? commands[name]! : null;
  if (command === null) {
    process.stderr.write(`${name === undefined ? '' : `leaseboard: no command ${JSON.stringify(name)}\n`}${usage(commands)}`);
    process.exit(2);
  }
  if ('load' in command) return (await command.load()).run(rest);
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(command.help);
    process.exit(0);
  }
  // The program reads its arguments from process.argv, as under `npm run …`.
  process.argv = [process.argv[0]!, path.join(ROOT, command.program), ...rest];
  for (const [key, value] of Object.entries(command.env ?? {})) process.env[key] ??= value;
  await loadProgram(command.program);
}

if (require.main === module) void main(process.argv.slice(2));
