/**
 * A command with sub-commands (`leaseboard maintenance list | create | cancel`,
 * `leaseboard tokens list | create | revoke`): `--help` prints its usage (exit
 * 0); its options are parsed strictly; the sub-command, and the one operand
 * the sub-command that takes one needs, are checked. Anything wrong goes to
 * the command's `fail` (its message, exit 2) before anything else runs.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

export function subcommand<const O extends Options, const A extends string>(spec: {
  name: string;
  argv: string[];
  options: O;
  actions: readonly [A, ...A[]];
  /** The one sub-command that takes an operand (an id), what it must look like, and what to say otherwise. */
  operand: { action: A; pattern: RegExp; message: string };
  usage: string;
  fail: (message: string) => never;
}) {
  const { name, argv, options, actions, operand, usage, fail } = spec;
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(usage);
    process.exit(0);
  }
  const parsed = (() => {
    try {
      return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
    } catch (error) {
      return fail(`${(error as Error).message} (leaseboard ${name} --help)`);
    }
  })();
  const [given, ...operands] = parsed.positionals;
  const action = actions.find((a) => a === given);
  if (action === undefined) fail(`say ${actions.slice(0, -1).join(', ')} or ${actions.at(-1)}\n${usage}`);
  const takesOne = action === operand.action;
  if (!takesOne && operands.length > 0) fail(`${action} takes no ${JSON.stringify(operands[0])}`);
  if (takesOne && (operands.length !== 1 || !operand.pattern.test(operands[0]!))) fail(operand.message);
  return { action, values: parsed.values, operand: takesOne ? operands[0]! : null };
}
