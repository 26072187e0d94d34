/**
 * Golden alert-evaluation files (`leaseboard-alert-golden/1`, see the shared
 * golden/README.md) → evaluator rounds, and the comparison of expectations.
 *
 * Guarantees: pure; `parseAlertGoldenFile` accepts exactly the documented
 * format (unknown keys ignored; evaluations must go forward in time) and
 * reports every problem with its JSON path. The mapping judges nothing: each
 * evaluation becomes one real `evaluateRound` over one scheduler whose
 * projected `health`/`atRisk` are the case's, with the case's rule timings
 * and the mode in force (the latest `modes` entry at or before it; none →
 * the default `shadow`). `state` is compared with the Prometheus phase
 * (`resolved` reads `inactive`), `delivered` with `isDelivered` (the alert is
 * firing and its mode is `on`, so Alertmanager holds it as firing).
 * Non-guarantees: no file I/O here; see scripts/golden.ts.
 */
import { z } from 'zod';
import { toMs } from '../status/time';
import { DEFAULT_ALERT_CONFIG, type AlertConfig } from './config';
import { INACTIVE, phase } from './machine';
import { DEFAULT_MODE, modeTable } from './modes';
import { alertKey } from './payload';
import { evaluateRound } from './round';
import { isDelivered } from './step';
import type { AlertMode, AlertPhase, AlertRecord } from './types';

export const ALERT_GOLDEN_FORMAT = 'leaseboard-alert-golden/1';

/** The name the golden scheduler gets in labels and keys. */
export const GOLDEN_SCHEDULER = 'retention-planner';

const iso = z.iso.datetime({ offset: true });
const ms = z.number().int().nonnegative();
const mode = z.enum(['off', 'shadow', 'on']);
/** The rules whose condition the format can express (health and atRisk only). */
const GOLDEN_RULES = ['SchedulerStalled', 'SchedulerNoLeader', 'SchedulerUnknown', 'LeaseRenewalAtRisk'] as const;

const evaluationSchema = z.object({
  at: iso,
  health: z.enum(['disabled', 'unknown', 'no_leader', 'stalled', 'progressing', 'idle']),
  atRisk: z.boolean(),
  expect: z.object({ state: z.enum(['inactive', 'pending', 'firing']), delivered: z.boolean() }),
});

const caseSchema = z.object({
  name: z.string().min(1),
  rule: z.object({ alertname: z.enum(GOLDEN_RULES), forMs: ms, keepFiringForMs: ms }),
  modes: z.array(z.object({ at: iso, mode })),
  evaluations: z
    .array(evaluationSchema)
    .min(1)
    .superRefine((evaluations, ctx) => {
      for (let i = 1; i < evaluations.length; i++) {
        if (Date.parse(evaluations[i]!.at) <= Date.parse(evaluations[i - 1]!.at)) {
          ctx.addIssue({ code: 'custom', path: [i, 'at'], message: 'evaluations must go forward in time' });
        }
      }
    }),
});

const fileSchema = z.object({ format: z.literal(ALERT_GOLDEN_FORMAT), cases: z.array(caseSchema).min(1) });

export type AlertGoldenCase = z.infer<typeof caseSchema>;
export type AlertGoldenEvaluation = z.infer<typeof evaluationSchema>;

export type AlertGoldenParse = { kind: 'ok'; cases: AlertGoldenCase[] } | { kind: 'invalid'; problems: string[] };

export function parseAlertGoldenFile(json: unknown): AlertGoldenParse {
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    return { kind: 'invalid', problems: parsed.error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`) };
  }
  return { kind: 'ok', cases: parsed.data.cases };
}

/** The mode in force at `at`: the latest entry at or before it (a later entry in file order wins a tie); none → shadow. */
export function modeInForce(modes: AlertGoldenCase['modes'], at: string): AlertMode {
  const atMs = toMs('at', at);
  let best: { ms: number; mode: AlertMode } | null = null;
  for (const m of modes) {
    const mMs = toMs('modes.at', m.at);
    if (mMs <= atMs && (best === null || mMs >= best.ms)) best = { ms: mMs, mode: m.mode };
  }
  return best?.mode ?? DEFAULT_MODE;
}

/** The evaluator config of a case: its rule's timings, the defaults for the rest. */
export function caseConfig(c: AlertGoldenCase): AlertConfig {
  const { alertname, forMs, keepFiringForMs } = c.rule;
  return { ...DEFAULT_ALERT_CONFIG, timings: { ...DEFAULT_ALERT_CONFIG.timings, [alertname]: { forMs, keepFiringForMs } } };
}

export interface EvaluationOutcome {
  at: string;
  mode: AlertMode;
  record: AlertRecord | null;
  state: AlertPhase;
  delivered: boolean;
}

/** Runs a case's evaluations through real evaluator rounds; one outcome per evaluation. */
export function replayCase(
  c: AlertGoldenCase,
  evaluations: readonly Pick<AlertGoldenEvaluation, 'at' | 'health' | 'atRisk'>[] = c.evaluations,
): EvaluationOutcome[] {
  const config = caseConfig(c);
  const rule = c.rule.alertname;
  const key = alertKey(rule, GOLDEN_SCHEDULER);
  let previous = new Map<string, AlertRecord>();
  return evaluations.map((e) => {
    const mode = modeInForce(c.modes, e.at);
    const round = evaluateRound({
      now: e.at,
      service: { storeReadable: true, lastObservedAt: e.at },
      schedulers: [{ scheduler: GOLDEN_SCHEDULER, health: e.health, atRisk: e.atRisk, storeReadable: true, lastRejectionAt: null, reasons: [] }],
      modes: modeTable([{ rule, scheduler: null, mode, by: 'golden', reason: c.name, at: e.at }]),
      previous,
      config,
    });
    previous = round.records;
    const record = round.records.get(key) ?? null;
    const state = record?.state ?? INACTIVE;
    return { at: e.at, mode, record, state: phase(state), delivered: isDelivered(state, mode) };
  });
}

interface AlertGoldenMismatch {
  at: string;
  expected: AlertGoldenEvaluation['expect'];
  got: { state: AlertPhase; delivered: boolean };
}

export type AlertGoldenResult =
  { kind: 'pass'; name: string } | { kind: 'fail'; name: string; mismatches: AlertGoldenMismatch[] } | { kind: 'error'; name: string; message: string };

export function runAlertGoldenCase(c: AlertGoldenCase): AlertGoldenResult {
  let outcomes: EvaluationOutcome[];
  try {
    outcomes = replayCase(c);
  } catch (error) {
    return { kind: 'error', name: c.name, message: error instanceof Error ? error.message : String(error) };
  }
  const mismatches: AlertGoldenMismatch[] = [];
  outcomes.forEach((o, i) => {
    const expected = c.evaluations[i]!.expect;
    if (o.state !== expected.state || o.delivered !== expected.delivered)
      mismatches.push({ at: o.at, expected, got: { state: o.state, delivered: o.delivered } });
  });
  return mismatches.length === 0 ? { kind: 'pass', name: c.name } : { kind: 'fail', name: c.name, mismatches };
}

const show = (v: { state: string; delivered: boolean }) => `state=${v.state}, delivered=${String(v.delivered)}`;

/** `PASS name` or `FAIL name: at T expected state=pending, delivered=false got state=firing, delivered=true; at …`. */
export function alertGoldenLine(r: AlertGoldenResult): string {
  switch (r.kind) {
    case 'pass':
      return `PASS ${r.name}`;
    case 'fail':
      return `FAIL ${r.name}: ${r.mismatches.map((m) => `at ${m.at} expected ${show(m.expected)} got ${show(m.got)}`).join('; ')}`;
    case 'error':
      return `FAIL ${r.name}: expected evaluations got error: ${r.message}`;
    default: {
      const never: never = r;
      return never;
    }
  }
}
