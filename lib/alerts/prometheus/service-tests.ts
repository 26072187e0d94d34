/**
 * Hand-written promtool tests for the rules the golden format cannot
 * describe (its evaluations carry only health and atRisk): the Watchdog,
 * StatusStoreUnreadable and StaleWritesRejected, with the default timings.
 *
 * Guarantees: pure; expectations follow the catalogue's words (always
 * firing; unreadable for `for` fires; a rejection within the window fires).
 * Non-guarantees: NOT derived from golden cases — say so wherever counted.
 */
import { DEFAULT_ALERT_CONFIG, type AlertConfig } from '../config';
import { ruleInfo } from '../catalogue';
import type { YamlValue } from '../yaml';
import { promDuration } from './duration';
import { METRIC, promAnnotations, promRuleFile } from './rules';

const SCHEDULER = 'retention-planner';
const STEP_MS = 15_000;

function firing(rule: 'Watchdog' | 'StatusStoreUnreadable' | 'StaleWritesRejected', config: AlertConfig): YamlValue {
  const scheduler = rule === 'StaleWritesRejected' ? { scheduler: SCHEDULER } : {};
  return {
    exp_labels: { ...scheduler, severity: ruleInfo(rule).severity },
    exp_annotations: promAnnotations(rule, config.externalUrl, { text: SCHEDULER, url: SCHEDULER }),
  };
}

/** `value` for `steps` samples. */
const repeat = (value: number, steps: number) => Array.from({ length: steps }, () => value).join(' ');

export function serviceRuleTests(stem: string, config: AlertConfig = DEFAULT_ALERT_CONFIG): { rules: YamlValue; tests: YamlValue } {
  const unreadableFor = config.timings.StatusStoreUnreadable.forMs;
  const windowS = config.rejectionWindowMs / 1000;
  const stepS = STEP_MS / 1000;
  // Unreadable from 60 s for a while, readable again after.
  const downFrom = 60_000;
  const downSteps = Math.ceil((unreadableFor + 2 * STEP_MS) / STEP_MS);
  const backAt = downFrom + downSteps * STEP_MS;
  const ageSamples = Math.ceil((windowS + 2 * stepS) / stepS) + 1;
  return {
    rules: promRuleFile(config, ['Watchdog', 'StatusStoreUnreadable', 'StaleWritesRejected']),
    tests: {
      rule_files: [`${stem}.rules.yml`],
      evaluation_interval: promDuration(STEP_MS),
      tests: [
        {
          name: 'hand-written: Watchdog always fires',
          interval: promDuration(STEP_MS),
          input_series: [],
          alert_rule_test: [0, 3_600_000].map((ms) => ({ eval_time: promDuration(ms), alertname: 'Watchdog', exp_alerts: [firing('Watchdog', config)] })),
        },
        {
          name: 'hand-written: StatusStoreUnreadable fires after for, resolves when the store reads again',
          interval: promDuration(STEP_MS),
          input_series: [
            {
              series: `${METRIC.observationOk}{job="leaseboard",instance="status-1"}`,
              values: [repeat(1, downFrom / STEP_MS), repeat(0, downSteps), repeat(1, 4)].join(' '),
            },
          ],
          alert_rule_test: [
            { eval_time: promDuration(downFrom - STEP_MS), alertname: 'StatusStoreUnreadable', exp_alerts: [] },
            { eval_time: promDuration(downFrom + unreadableFor - STEP_MS), alertname: 'StatusStoreUnreadable', exp_alerts: [] },
            { eval_time: promDuration(downFrom + unreadableFor), alertname: 'StatusStoreUnreadable', exp_alerts: [firing('StatusStoreUnreadable', config)] },
            { eval_time: promDuration(backAt), alertname: 'StatusStoreUnreadable', exp_alerts: [] },
          ],
        },
        {
          name: 'hand-written: StaleWritesRejected fires while the newest rejection is within the window',
          interval: promDuration(STEP_MS),
          input_series: [
            {
              series: `${METRIC.staleWriteAge}{job="leaseboard",instance="status-1",scheduler="${SCHEDULER}"}`,
              values: `0+${stepS}x${ageSamples - 1}`,
            },
          ],
          alert_rule_test: [
            { eval_time: '0s', alertname: 'StaleWritesRejected', exp_alerts: [firing('StaleWritesRejected', config)] },
            { eval_time: promDuration(config.rejectionWindowMs), alertname: 'StaleWritesRejected', exp_alerts: [firing('StaleWritesRejected', config)] },
            { eval_time: promDuration(config.rejectionWindowMs + STEP_MS), alertname: 'StaleWritesRejected', exp_alerts: [] },
          ],
        },
      ],
    },
  };
}
