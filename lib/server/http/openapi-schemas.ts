/**
 * JSON Schemas (OpenAPI 3.1 = JSON Schema 2020-12) of the v1 shapes in
 * lib/api/types.ts and lib/status/types.ts. Hand-written; the int test checks
 * real responses against the required keys listed here.
 */
const str = { type: 'string' } as const;
const int = { type: 'integer' } as const;
const bool = { type: 'boolean' } as const;
const time = { type: 'string', format: 'date-time', description: 'ISO-8601 UTC, database clock' } as const;
const nullable = (schema: object) => ({ oneOf: [schema, { type: 'null' }] });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const obj = (properties: Record<string, object>, required = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
});
const enumOf = (...values: string[]) => ({ type: 'string', enum: values });

export const HEALTHS = ['disabled', 'unknown', 'no_leader', 'stalled', 'progressing', 'idle'];

const gap = obj({ from: time, to: time, reason: enumOf('silence', 'lost_reports', 'store_unreadable', 'no_report_yet', 'previous_epoch_only') });
const tenure = obj({
  epoch: int,
  holder: str,
  label: nullable(str),
  from: time,
  to: nullable(time),
  began: enumOf('acquired', 'taken_over'),
  ended: nullable(enumOf('released', 'expired', 'taken_over')),
});
const observation = obj({ ok: bool, lastObservedAt: nullable(time) });
const intent = obj({ disabled: bool, by: str, reason: str, at: time });

export const SCHEMAS = {
  Health: enumOf(...HEALTHS),
  ObservationGap: gap,
  Observation: observation,
  Intent: intent,
  SchedulerStatus: obj({
    name: str,
    health: ref('Health'),
    authority: obj({
      state: enumOf('held', 'expired', 'released', 'none', 'unknown'),
      holder: nullable(str),
      label: nullable(str),
      epoch: nullable(int),
      acquiredAt: nullable(time),
      renewedAt: nullable(time),
      renewalAgeMs: nullable(int),
      expiresAt: nullable(time),
      expiresInMs: nullable(int),
      ttlMs: nullable(int),
      atRisk: bool,
    }),
    work: obj({
      state: enumOf('none', 'progressing', 'stalled', 'idle', 'unknown'),
      occurrence: nullable(str),
      cursor: nullable({ type: 'number' }),
      lastAdvanceAt: nullable(time),
      lastAdvanceAgeMs: nullable(int),
      lastReportAt: nullable(time),
      lastReportAgeMs: nullable(int),
    }),
    observation: obj({ gap: nullable(ref('ObservationGap')) }),
    intent: nullable(ref('Intent')),
    reasons: { type: 'array', items: obj({ code: str, message: str }) },
  }),
  SchedulerListResponse: obj({
    observedAt: time,
    observation: ref('Observation'),
    pollIntervalMs: int,
    counts: obj(Object.fromEntries(HEALTHS.map((h) => [h, int]))),
    total: int,
    limit: int,
    offset: int,
    schedulers: { type: 'array', items: ref('SchedulerStatus') },
  }),
  Tenure: tenure,
  StaleWriteRejection: obj({
    at: time,
    attemptedEpoch: int,
    currentEpoch: nullable(int),
    resource: str,
    reason: enumOf('stale_epoch', 'expired', 'released', 'no_lease'),
  }),
  SchedulerDetailResponse: obj(
    {
      observedAt: time,
      observation: ref('Observation'),
      pollIntervalMs: int,
      asOf: nullable(time),
      status: ref('SchedulerStatus'),
      transitions: { type: 'array', items: ref('Tenure'), description: 'newest first' },
      rejections: { type: 'array', items: ref('StaleWriteRejection'), maxItems: 50, description: 'newest first' },
      estimated: { type: 'array', items: str, description: 'as-of facts that are estimates (e.g. lease.renewedAt)' },
    },
    ['observedAt', 'observation', 'pollIntervalMs', 'asOf', 'status', 'transitions', 'rejections'],
  ),
  SchedulerHistoryResponse: obj({
    name: str,
    from: time,
    to: time,
    bucketMs: int,
    ttlMs: nullable(int),
    segments: { type: 'array', items: obj({ from: time, to: time, health: ref('Health'), gap: nullable(ref('ObservationGap')) }) },
    gaps: { type: 'array', items: ref('ObservationGap') },
    tenures: { type: 'array', items: ref('Tenure') },
    buckets: {
      type: 'array',
      maxItems: 360,
      items: obj({ t: time, renewalAgeMaxMs: nullable(int), cursor: nullable({ type: 'number' }), advances: int, reports: int, epoch: nullable(int) }),
    },
  }),
  HealthzResponse: obj({
    ok: bool,
    checkedAt: time,
    store: obj({ ok: bool, latencyMs: nullable(int), lastObservedAt: nullable(time), error: nullable(str) }),
    readTimeoutMs: int,
  }),
  Error: obj({ error: obj({ code: str, message: str }) }),
} as const;
