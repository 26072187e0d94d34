/**
 * promtool unit tests DERIVED FROM the golden alert cases: each expressible
 * case becomes one rule file (its rule, with the case's `for` and
 * `keep_firing_for`) and one test file whose input series replay the case's
 * health and at-risk as /api/metrics would export them, and whose
 * expectations are the case's states at its evaluation instants (firing via
 * `alert_rule_test`, pending via `ALERTS{alertstate="pending"}`).
 *
 * Guarantees: pure; which cases PromQL cannot express is decided from the
 * case itself — never from running promtool — and each skipped case carries
 * its reason:
 * - `mode_off`: `off` forgets the state; Prometheus has no per-rule switch.
 * - `unknown_holds_pending`, `unknown_holds_keep_firing`: the evaluator holds
 *   a pending alert's `for` clock (or a `keep_firing_for` clock) through
 *   unknown evidence; PromQL drops the pending alert (restarts the clock).
 * - `cadence`: Prometheus evaluates every `step` (the greatest common divisor
 *   of the case's offsets); a case whose answer at its instants changes when
 *   the evaluator also runs in between (checked by replaying it through
 *   lib/alerts at every step) describes a cadence, not a rule.
 * `delivered` is never checked here: delivery and shadow are the evaluator's
 * and Alertmanager routing's business; states under `shadow` and `on` are
 * the same, so both are derived.
 * Non-guarantees: runs nothing; scripts/alerts.ts writes the files and the
 * int test runs promtool on them.
 */
import { HEALTH_SEVERITY } from '../../status/health';
import type { Health } from '../../status/types';
import { ruleInfo } from '../catalogue';
import { GOLDEN_SCHEDULER, caseConfig, modeInForce, replayCase, type AlertGoldenCase, type AlertGoldenEvaluation } from '../golden';
import type { YamlValue } from '../yaml';
import { promDuration } from './duration';
import { METRIC, promAnnotations, promRuleFile } from './rules';

/** At most this many samples per series (a case with finer instants is skipped). */
const MAX_STEPS = 20_000;

export type SkipReason = 'mode_off' | 'unknown_holds_pending' | 'unknown_holds_keep_firing' | 'cadence' | 'too_fine';

function skipReasonText(reason: SkipReason, stepMs?: number): string {
  switch (reason) {
    case 'mode_off':
      return 'mode off forgets the state; Prometheus has no per-rule switch (remove the rule instead)';
    case 'unknown_holds_pending':
      return "the evaluator holds a pending alert's for clock through unknown evidence; PromQL drops it to inactive (it restarts for)";
    case 'unknown_holds_keep_firing':
      return 'the evaluator holds a keep_firing_for clock through unknown evidence; the PromQL hold restarts it';
    case 'cadence':
      return `its answer depends on the evaluation cadence: Prometheus evaluates every ${promDuration(stepMs ?? 0)}, the case only at its listed instants`;
    case 'too_fine':
      return `its instants need more than ${MAX_STEPS} samples per series`;
    default: {
      const never: never = reason;
      return never;
    }
  }
}

interface DerivedCase {
  name: string;
  /** File stem, e.g. `case-07` (`<stem>.rules.yml`, `<stem>.test.yml`). */
  stem: string;
  rules: YamlValue;
  tests: YamlValue;
}

export interface Derivation {
  derived: DerivedCase[];
  skipped: { name: string; reason: SkipReason; text: string }[];
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

function offsets(c: AlertGoldenCase): number[] {
  const t0 = Date.parse(c.evaluations[0]!.at);
  return c.evaluations.map((e) => Date.parse(e.at) - t0);
}

function stepOf(c: AlertGoldenCase): number {
  return offsets(c).reduce((g, o) => gcd(g, o), 0) || 1_000;
}

/** The inputs at every step from the first evaluation to the last (each the latest evaluation at or before it). */
function denseEvaluations(c: AlertGoldenCase, step: number): Pick<AlertGoldenEvaluation, 'at' | 'health' | 'atRisk'>[] {
  const t0 = Date.parse(c.evaluations[0]!.at);
  const last = offsets(c).at(-1)!;
  const out: Pick<AlertGoldenEvaluation, 'at' | 'health' | 'atRisk'>[] = [];
  let i = 0;
  for (let o = 0; o <= last; o += step) {
    while (i + 1 < c.evaluations.length && Date.parse(c.evaluations[i + 1]!.at) - t0 <= o) i += 1;
    const e = c.evaluations[i]!;
    out.push({ at: new Date(t0 + o).toISOString(), health: e.health, atRisk: e.atRisk });
  }
  return out;
}

/** Why PromQL cannot express the case, or null when it can. */
export function whyNotExpressible(c: AlertGoldenCase): SkipReason | null {
  if (c.evaluations.some((e) => modeInForce(c.modes, e.at) === 'off')) return 'mode_off';
  const atInstants = replayCase(c);
  if (c.rule.alertname !== 'SchedulerUnknown') {
    for (let i = 1; i < c.evaluations.length; i++) {
      if (c.evaluations[i]!.health !== 'unknown') continue;
      const before = atInstants[i - 1]!.record?.state;
      if (before?.kind === 'pending') return 'unknown_holds_pending';
      if (before?.kind === 'firing' && before.keepFiringSince !== null) return 'unknown_holds_keep_firing';
    }
  }
  const step = stepOf(c);
  if (offsets(c).at(-1)! / step > MAX_STEPS) return 'too_fine';
  const dense = replayCase(c, denseEvaluations(c, step));
  const byAt = new Map(dense.map((o) => [o.at, o.state]));
  return atInstants.every((o) => byAt.get(new Date(Date.parse(o.at)).toISOString()) === o.state) ? null : 'cadence';
}

function series(c: AlertGoldenCase, step: number): YamlValue {
  const dense = denseEvaluations(c, step);
  const labels = `job="leaseboard",instance="status-1",scheduler="${GOLDEN_SCHEDULER}"`;
  const values = (pick: (h: Health, atRisk: boolean) => number) => dense.map((e) => pick(e.health, e.atRisk)).join(' ');
  return [
    ...HEALTH_SEVERITY.map((h) => ({ series: `${METRIC.health}{${labels},health="${h}"}`, values: values((health) => (health === h ? 1 : 0)) })),
    { series: `${METRIC.atRisk}{${labels}}`, values: values((_h, atRisk) => (atRisk ? 1 : 0)) },
  ];
}

function testFile(c: AlertGoldenCase, stem: string, step: number): YamlValue {
  const rule = c.rule.alertname;
  const config = caseConfig(c);
  const severity = ruleInfo(rule).severity;
  const labels = { scheduler: GOLDEN_SCHEDULER, severity };
  const annotations = promAnnotations(rule, config.externalUrl, { text: GOLDEN_SCHEDULER, url: GOLDEN_SCHEDULER });
  const t0 = Date.parse(c.evaluations[0]!.at);
  const evalTime = (e: AlertGoldenEvaluation) => promDuration(Date.parse(e.at) - t0);
  return {
    rule_files: [`${stem}.rules.yml`],
    evaluation_interval: promDuration(step),
    tests: [
      {
        name: c.name,
        interval: promDuration(step),
        input_series: series(c, step),
        alert_rule_test: c.evaluations.map((e) => ({
          eval_time: evalTime(e),
          alertname: rule,
          exp_alerts: e.expect.state === 'firing' ? [{ exp_labels: labels, exp_annotations: annotations }] : [],
        })),
        promql_expr_test: c.evaluations.map((e) => ({
          expr: `ALERTS{alertname="${rule}", alertstate="pending"}`,
          eval_time: evalTime(e),
          exp_samples:
            e.expect.state === 'pending'
              ? [{ labels: `ALERTS{alertname="${rule}",alertstate="pending",scheduler="${GOLDEN_SCHEDULER}",severity="${severity}"}`, value: 1 }]
              : [],
        })),
      },
    ],
  };
}

/** `prefix` keeps file stems apart when several golden files go into one folder. */
export function deriveRuleTests(cases: readonly AlertGoldenCase[], prefix = ''): Derivation {
  const out: Derivation = { derived: [], skipped: [] };
  cases.forEach((c, i) => {
    const reason = whyNotExpressible(c);
    if (reason !== null) {
      out.skipped.push({ name: c.name, reason, text: skipReasonText(reason, stepOf(c)) });
      return;
    }
    const stem = `${prefix}case-${String(i + 1).padStart(2, '0')}`;
    const step = stepOf(c);
    out.derived.push({ name: c.name, stem, rules: promRuleFile(caseConfig(c), [c.rule.alertname]), tests: testFile(c, stem, step) });
  });
  return out;
}
