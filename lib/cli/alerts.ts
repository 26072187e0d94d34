/**
 * `leaseboard alerts SUBCOMMAND` and `npm run alerts -- SUBCOMMAND` (scripts/alerts.ts):
 * - `rules [--out FILE]` — the Prometheus rule file equivalent to the
 *   evaluator (timings and links from the environment, as the evaluator
 *   reads them; see lib/alerts/config.ts). Stdout without --out.
 * - `rule-tests --out DIR [GOLDEN_FILE …]` — promtool tests derived from
 *   golden alert cases (default: lib/alerts/golden/alerts-cases.json), one
 *   rule file and one test file per expressible case, plus the hand-written
 *   service-rule tests; prints which cases were derived and why the others
 *   cannot be expressed. Run them with `promtool test rules DIR/*.test.yml`.
 * - `alertmanager-config [--out FILE] [--webhook URL] [--team NAME]…` — the Alertmanager
 *   configuration with Leaseboard's inhibit rule (docs/alertmanager/).
 * - `mode --rule R [--scheduler S] --mode on|shadow|off --by WHO --reason WHY`
 *   — an operator sets a rule's rollout mode (or one scheduler's override),
 *   audited (lib/alerts/store/modes.ts). Prints the change as one JSON line.
 *   Database: DATABASE_URL, else the running demo's.
 * Exit codes: 0 done (also: already in that mode, nothing recorded) · 2 usage,
 * bad configuration, unknown rule or scheduler, or unreadable input.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { alertmanagerConfig, SHIPPED_HEADER, SHIPPED_OPTIONS, teamRouteProblem } from '../alerts/alertmanager-config';
import { AlertConfigError, parseAlertConfig } from '../alerts/config';
import { parseAlertGoldenFile } from '../alerts/golden';
import { deriveRuleTests } from '../alerts/prometheus/rule-tests';
import { promRuleFile, RULE_FILE_HEADER } from '../alerts/prometheus/rules';
import { serviceRuleTests } from '../alerts/prometheus/service-tests';
import { toYaml } from '../alerts/yaml';
import { changeAlertMode, modeChangeSchema } from '../alerts/store/modes';
import { createPool } from '../../db/pool';
import { urlPasswordRefusal } from '../config';
import { actionsDatabaseUrl } from './running-database';

const USAGE = `usage: npm run alerts -- rules [--out FILE]
       npm run alerts -- rule-tests --out DIR [GOLDEN_FILE …]
       npm run alerts -- alertmanager-config [--out FILE] [--webhook URL] [--team NAME]…
       npm run alerts -- mode --rule R [--scheduler S] --mode on|shadow|off --by WHO --reason WHY`;

class UsageError extends Error {}
/** A well-formed command the store refuses (unknown scheduler, no override for that rule…): a message, no usage text. */
class RefusedError extends Error {}

function write(out: string | undefined, text: string): void {
  if (out === undefined) process.stdout.write(text);
  else {
    writeFileSync(out, text);
    process.stdout.write(`alerts: wrote ${out}\n`);
  }
}

function rules(args: string[]): void {
  const { values } = parseArgs({ args, options: { out: { type: 'string' } }, strict: true });
  write(values.out, toYaml(promRuleFile(parseAlertConfig(process.env)), RULE_FILE_HEADER));
}

function ruleTests(args: string[], root: string): void {
  const { values, positionals } = parseArgs({ args, options: { out: { type: 'string' } }, strict: true, allowPositionals: true });
  if (!values.out) throw new UsageError('rule-tests needs --out DIR');
  const files = positionals.length > 0 ? positionals : [path.join(root, 'lib/alerts/golden/alerts-cases.json')];
  mkdirSync(values.out, { recursive: true });
  let derivedCount = 0;
  const lines: string[] = [];
  files.forEach((file, f) => {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new UsageError(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const parsed = parseAlertGoldenFile(json);
    if (parsed.kind === 'invalid') throw new UsageError(`${file} is not a golden alert file:\n  ${parsed.problems.join('\n  ')}`);
    const { derived, skipped } = deriveRuleTests(parsed.cases, `golden${f + 1}-`);
    for (const d of derived) {
      const comment = `derived from ${path.basename(file)}: ${d.name}`;
      writeFileSync(path.join(values.out!, `${d.stem}.rules.yml`), toYaml(d.rules, comment));
      writeFileSync(path.join(values.out!, `${d.stem}.test.yml`), toYaml(d.tests, comment));
      lines.push(`DERIVED ${d.name}`);
    }
    for (const s of skipped) lines.push(`SKIP ${s.name}: ${s.text}`);
    derivedCount += derived.length;
    lines.push(`${path.basename(file)}: ${derived.length} derived, ${skipped.length} not expressible in PromQL`);
  });
  const service = serviceRuleTests('service');
  writeFileSync(path.join(values.out, 'service.rules.yml'), toYaml(service.rules, 'hand-written (the golden format has no evidence for these rules)'));
  writeFileSync(path.join(values.out, 'service.test.yml'), toYaml(service.tests, 'hand-written (the golden format has no evidence for these rules)'));
  lines.push(`service.test.yml: 3 hand-written tests (Watchdog, StatusStoreUnreadable, StaleWritesRejected)`);
  lines.push(`${derivedCount} derived test files in ${values.out}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

function amConfig(args: string[]): void {
  const { values } = parseArgs({
    args,
    options: { out: { type: 'string' }, webhook: { type: 'string' }, team: { type: 'string', multiple: true } },
    strict: true,
  });
  const teamProblem = (values.team ?? []).map(teamRouteProblem).find((p) => p !== null);
  if (teamProblem !== undefined) {
    process.stderr.write(`alerts: --team: ${teamProblem}\n`);
    process.exit(2);
  }
  const refusal = values.webhook
    ? urlPasswordRefusal(
        '--webhook',
        values.webhook,
        "put the receiver's credentials in the written file's http_config (basic_auth with password_file), not in the URL",
      )
    : null;
  if (refusal !== null) {
    process.stderr.write(`alerts: ${refusal}\n`);
    process.exit(2);
  }
  const teams = values.team ?? SHIPPED_OPTIONS.teams;
  const options = values.webhook ? { webhookUrl: values.webhook, teams } : { ...SHIPPED_OPTIONS, teams };
  write(values.out, toYaml(alertmanagerConfig(options), SHIPPED_HEADER));
}

async function mode(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { rule: { type: 'string' }, scheduler: { type: 'string' }, mode: { type: 'string' }, by: { type: 'string' }, reason: { type: 'string' } },
    strict: true,
  });
  const change = modeChangeSchema.safeParse({
    rule: values.rule ?? '',
    scheduler: values.scheduler ?? null,
    mode: values.mode ?? '',
    by: values.by ?? '',
    reason: values.reason ?? '',
  });
  if (!change.success) throw new UsageError(change.error.issues.map((issue) => issue.message).join('; '));
  const url = actionsDatabaseUrl((message) => {
    throw new UsageError(message);
  });
  const pool = createPool(url, { applicationName: 'leaseboard-alerts-cli' });
  try {
    const result = await changeAlertMode(pool, change.data as Parameters<typeof changeAlertMode>[1], { mustExist: true, identifiedBy: 'cli' });
    const { rule, scheduler } = change.data;
    const target = scheduler === null ? rule : `${rule} on ${scheduler}`;
    switch (result.kind) {
      case 'changed':
        process.stdout.write(`${JSON.stringify({ ...result.setting, from: result.from.setting ?? `${result.from.effective} (inherited)` })}\n`);
        return;
      case 'unchanged':
        process.stdout.write(`alerts: ${target} is already ${result.current.mode} (by ${result.current.by}: ${result.current.reason}); nothing recorded\n`);
        return;
      case 'unknown_scheduler':
        throw new RefusedError(`no scheduler named ${scheduler}`);
      case 'no_override':
        throw new RefusedError(`${rule} is about the status service itself: it has no per-scheduler mode (leave out --scheduler)`);
      case 'conflict':
        throw new RefusedError(`the mode of ${target} changed meanwhile (now ${result.effective}); look again and retry`);
      default: {
        const unreachable: never = result;
        throw new Error(`unexpected mode result ${JSON.stringify(unreachable)}`);
      }
    }
  } finally {
    await pool.end();
  }
}

/** Runs one subcommand (`root`: where the default golden file is found, lib/alerts/golden/); resolves to the exit code. */
export async function alerts(argv: string[], root: string): Promise<number> {
  const args = argv.filter((a) => a !== '--');
  const [command, ...rest] = args;
  try {
    switch (command) {
      case 'rules':
        rules(rest);
        return 0;
      case 'rule-tests':
        ruleTests(rest, root);
        return 0;
      case 'alertmanager-config':
        amConfig(rest);
        return 0;
      case 'mode':
        await mode(rest);
        return 0;
      default:
        throw new UsageError(command === undefined ? 'no subcommand' : `unknown subcommand ${JSON.stringify(command)}`);
    }
  } catch (error) {
    if (
      error instanceof UsageError ||
      error instanceof RefusedError ||
      error instanceof AlertConfigError ||
      (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))
    ) {
      process.stderr.write(`alerts: ${error.message}\n${error instanceof UsageError ? USAGE : ''}\n`);
      return 2;
    }
    throw error;
  }
}
