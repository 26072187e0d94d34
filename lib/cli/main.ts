/**
 * `leaseboard COMMAND [options…]`: the composition root. The runtime
 * (lib/scheduler) runs any job and knows none; the jobs (lib/jobs) know the
 * runtime only through its public entry; this is the one place above both
 * that puts a named job into a runtime and a process around it
 * (`npm run scheduler -- …` is `leaseboard scheduler …`). The dashboard's own
 * process, which hosts the housekeeping jobs, is the other root (lib/host).
 *
 * A command is a module with `run(argv)`, loaded only when named: adding one
 * is one line in COMMANDS, and no command pays for loading another's code.
 *
 * Guarantees: no command, or an unknown one, prints the commands on stderr and
 * exits 2 (a command's own bad options: its message on stderr, exit 2). Lint
 * keeps everything else in lib from importing this folder.
 */

export interface Command {
  /** One line for the usage text. */
  readonly summary: string;
  /** The command's module; its `run` gets the arguments after the command's name. */
  readonly load: () => Promise<{ run(argv: string[]): Promise<void> }>;
}

export const COMMANDS: Readonly<Record<string, Command>> = {
  scheduler: { summary: 'run one job from lib/jobs under its lease, one JSON line per event', load: () => import('./scheduler') },
  run: { summary: 'run any command once per cadence slot under a lease (the exec runner)', load: () => import('./run') },
};

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`);
  return `usage: leaseboard COMMAND [options]\ncommands:\n${lines.join('\n')}\n`;
}

export async function main(argv: string[]): Promise<void> {
  const [name, ...rest] = argv;
  const command = name !== undefined && Object.hasOwn(COMMANDS, name) ? COMMANDS[name]! : null;
  if (command === null) {
    process.stderr.write(`${name === undefined ? '' : `leaseboard: no command ${JSON.stringify(name)}\n`}${usage()}`);
    process.exit(2);
  }
  await (await command.load()).run(rest);
}

if (require.main === module) void main(process.argv.slice(2));
