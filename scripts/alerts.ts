/**
 * `npm run alerts -- SUBCOMMAND`:
 * - `rules [--out FILE]` — the Prometheus rule file equivalent to the
 *   evaluator (timings and links from the environment, as the evaluator
 *   reads them; see lib/alerts/config.ts). Stdout without --out.
 * - `rule-tests --out DIR [GOLDEN_FILE …]` — promtool tests derived from
 *   golden alert cases (default: lib/alerts/golden/alerts-cases.json), one
 *   rule file and one test file per expressible case, plus the hand-written
 *   service-rule tests; prints which cases were derived and why the others
 *   cannot be expressed. Run them with `promtool test rules DIR/*.test.yml`.
 * - `alertmanager-config [--out FILE] [--webhook URL]` — the Alertmanager
 *   configuration with Leaseboard's inhibit rule (docs/alertmanager/).
 * Exit codes: 0 done · 2 usage, bad configuration or unreadable input.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { alertmanagerConfig, SHIPPED_HEADER, SHIPPED_OPTIONS } from '../lib/alerts/alertmanager-config';
import { AlertConfigError, parseAlertConfig } from '../lib/alerts/config';
import { parseAlertGoldenFile } from '../lib/alerts/golden';
import { deriveRuleTests } from '../lib/alerts/prometheus/rule-tests';
import { promRuleFile, RULE_FILE_HEADER } from '../lib/alerts/prometheus/rules';
import { serviceRuleTests } from '../lib/alerts/prometheus/service-tests';
import { toYaml } from '../lib/alerts/yaml';

const ROOT = path.resolve(__dirname, '..');
const USAGE = `usage: npm run alerts -- rules [--out FILE]
       npm run alerts -- rule-tests --out DIR [GOLDEN_FILE …]
       npm run alerts -- alertmanager-config [--out FILE] [--webhook URL]`;

class UsageError extends Error {}

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

function ruleTests(args: string[]): void {
  const { values, positionals } = parseArgs({ args, options: { out: { type: 'string' } }, strict: true, allowPositionals: true });
  if (!values.out) throw new UsageError('rule-tests needs --out DIR');
  const files = positionals.length > 0 ? positionals : [path.join(ROOT, 'lib/alerts/golden/alerts-cases.json')];
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
  const { values } = parseArgs({ args, options: { out: { type: 'string' }, webhook: { type: 'string' } }, strict: true });
  const options = values.webhook ? { webhookUrl: values.webhook } : SHIPPED_OPTIONS;
  write(values.out, toYaml(alertmanagerConfig(options), SHIPPED_HEADER));
}

function main(argv: string[]): number {
  const args = argv.filter((a) => a !== '--');
  const [command, ...rest] = args;
  try {
    switch (command) {
      case 'rules':
        rules(rest);
        return 0;
      case 'rule-tests':
        ruleTests(rest);
        return 0;
      case 'alertmanager-config':
        amConfig(rest);
        return 0;
      default:
        throw new UsageError(command === undefined ? 'no subcommand' : `unknown subcommand ${JSON.stringify(command)}`);
    }
  } catch (error) {
    if (
      error instanceof UsageError ||
      error instanceof AlertConfigError ||
      (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))
    ) {
      process.stderr.write(`alerts: ${error.message}\n${error instanceof UsageError ? USAGE : ''}\n`);
      return 2;
    }
    throw error;
  }
}

process.exitCode = main(process.argv.slice(2));
