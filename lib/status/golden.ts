/**
 * Golden files (format version 1, described in docs/golden.md) → projection inputs,
 * and the comparison of an expectation with a projected status.
 *
 * Guarantees: pure; `parseGoldenFile` accepts exactly the documented format
 * (unknown keys are ignored) and reports every problem with its JSON path;
 * the mapping judges nothing — it only copies facts, picks the case's
 * thresholds (which REPLACE the file's, as docs/golden.md says) and names the
 * scheduler (`facts.name`, else `lease.name`, else "unnamed"). Every decision
 * stays in `project`.
 * Non-guarantees: no file I/O here; see scripts/golden.ts.
 */
import { z } from 'zod';
import { HEALTH_SEVERITY } from './health';
import { project } from './project';
import type { Thresholds } from './thresholds';
import type { AuthorityState, Health, SchedulerFacts, SchedulerStatus, WorkState } from './types';

const iso = z.iso.datetime({ offset: true });
const count = z.number().int().nonnegative();

const thresholdsSchema = z.object({
  stallAfterMs: z.number().positive(),
  overdueAfterMs: z.number().nonnegative(),
  atRiskFraction: z.number().gt(0).lte(1),
  gapAfterMs: z.number().positive().optional(),
});

const factsSchema = z.object({
  name: z.string().min(1).optional(),
  store: z.discriminatedUnion('ok', [z.object({ ok: z.literal(true) }), z.object({ ok: z.literal(false), lastObservedAt: iso })]),
  lease: z
    .object({
      name: z.string().min(1),
      holder: z.string().min(1),
      label: z.string().nullable().optional(),
      epoch: count,
      acquiredAt: iso,
      renewedAt: iso,
      expiresAt: iso,
      ttlMs: z.number().positive(),
      released: z.boolean(),
    })
    .nullable(),
  intent: z.object({ disabled: z.boolean(), by: z.string(), reason: z.string(), at: iso }).nullable(),
  progress: z
    .object({
      epoch: count,
      lastReportAt: iso,
      lastSeq: count,
      lastAdvanceAt: iso,
      inFlight: z.string().nullable(),
      cursor: z.number().nullable(),
      reportEveryMs: z.number().positive(),
      gap: z.object({ from: iso, to: iso, reason: z.enum(['silence', 'lost_reports']) }).nullable(),
    })
    .nullable(),
  due: z.object({ occurrence: z.string(), dueAt: iso }).nullable(),
});

const health = z.enum(HEALTH_SEVERITY);
const authority = z.enum(['held', 'expired', 'released', 'none', 'unknown']);
const work = z.enum(['none', 'progressing', 'stalled', 'idle', 'unknown']);

const expectSchema = z
  .object({
    health: health.optional(),
    authority: authority.optional(),
    work: work.optional(),
    atRisk: z.boolean().optional(),
    gap: z.boolean().optional(),
  })
  .refine((e) => Object.values(e).some((v) => v !== undefined), 'expect must name at least one field');

const fileSchema = z.object({
  version: z.literal(1),
  thresholds: thresholdsSchema,
  cases: z
    .array(
      z.object({
        name: z.string().min(1),
        now: iso,
        thresholds: thresholdsSchema.optional(),
        facts: factsSchema,
        expect: expectSchema,
      }),
    )
    .min(1),
});

interface GoldenExpect {
  health?: Health;
  authority?: AuthorityState;
  work?: WorkState;
  atRisk?: boolean;
  gap?: boolean;
}

export interface GoldenCase {
  name: string;
  now: string;
  thresholds: Thresholds;
  facts: SchedulerFacts;
  expect: GoldenExpect;
}

export type GoldenParse = { kind: 'ok'; cases: GoldenCase[] } | { kind: 'invalid'; problems: string[] };

/** Validates a parsed JSON value as a version-1 golden file and maps its cases. */
export function parseGoldenFile(json: unknown): GoldenParse {
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`);
    return { kind: 'invalid', problems };
  }
  const file = parsed.data;
  const cases = file.cases.map((c): GoldenCase => ({
    name: c.name,
    now: c.now,
    thresholds: c.thresholds ?? file.thresholds,
    facts: { ...c.facts, name: c.facts.name ?? c.facts.lease?.name ?? 'unnamed' },
    expect: c.expect,
  }));
  return { kind: 'ok', cases };
}

interface GoldenMismatch {
  field: keyof GoldenExpect;
  expected: string | boolean;
  got: string | boolean;
}

/** The fields of `status` that differ from `expect` (only fields `expect` names). */
function compareExpect(expect: GoldenExpect, status: SchedulerStatus): GoldenMismatch[] {
  const got: Required<GoldenExpect> = {
    health: status.health,
    authority: status.authority.state,
    work: status.work.state,
    atRisk: status.authority.atRisk,
    gap: status.observation.gap !== null,
  };
  const mismatches: GoldenMismatch[] = [];
  for (const field of ['health', 'authority', 'work', 'atRisk', 'gap'] as const) {
    const expected = expect[field];
    if (expected !== undefined && expected !== got[field]) mismatches.push({ field, expected, got: got[field] });
  }
  return mismatches;
}

export type GoldenResult =
  { kind: 'pass'; name: string } | { kind: 'fail'; name: string; mismatches: GoldenMismatch[] } | { kind: 'error'; name: string; message: string };

/** Runs one case through the real projection; an exception is a failure, not a crash. */
export function runGoldenCase(c: GoldenCase): GoldenResult {
  let status: SchedulerStatus;
  try {
    status = project(c.facts, c.now, c.thresholds);
  } catch (error) {
    return { kind: 'error', name: c.name, message: error instanceof Error ? error.message : String(error) };
  }
  const mismatches = compareExpect(c.expect, status);
  return mismatches.length === 0 ? { kind: 'pass', name: c.name } : { kind: 'fail', name: c.name, mismatches };
}

/** `PASS name` or `FAIL name: expected health=stalled, gap=false got health=unknown, gap=true`. */
export function goldenLine(r: GoldenResult): string {
  switch (r.kind) {
    case 'pass':
      return `PASS ${r.name}`;
    case 'fail': {
      const expected = r.mismatches.map((m) => `${m.field}=${String(m.expected)}`).join(', ');
      const got = r.mismatches.map((m) => `${m.field}=${String(m.got)}`).join(', ');
      return `FAIL ${r.name}: expected ${expected} got ${got}`;
    }
    case 'error':
      return `FAIL ${r.name}: expected a status got error: ${r.message}`;
    default: {
      const never: never = r;
      return never;
    }
  }
}
