/**
 * The status service's environment, parsed once, validated and typed.
 *
 * Guarantees: `serverEnv()` parses `process.env` on first use and returns the
 * same frozen object afterwards; a missing or malformed value throws
 * `EnvError` naming the variable (never echoing a secret). Numbers are
 * clamped to documented ceilings (docs/design.md, invariant 11). The
 * retention policy (`LEASEBOARD_RETAIN_*`, lib/retention) is read here too,
 * so `?at=` and history answer 410 past the same horizon the pruner uses; a
 * bad value is refused (never clamped), the EnvError naming the variable.
 * `LEASEBOARD_BASE_PATH` (the prefix the dashboard is served under) is parsed
 * here too, and is the one reading of it in the process (`servedBasePath`,
 * which needs no DATABASE_URL: the HTTP server and the layout read it before
 * any data); only next.config.js reads the variable itself, before any of
 * this code runs.
 * Non-guarantees: later changes to `process.env` are not seen.
 */
import { z } from 'zod';
import { READER_ROLE } from '../../db/reader-role';
import { parseRetentionPolicy, RetentionConfigError, type RetentionPolicy } from '../retention';
import { DEFAULT_MAX_STANDBY_LAG_MS } from '../status/durability';
import { parseBasePath as parseServedPath } from '../api/base-path';
import { PublicUrlError } from '../api/public-url-error';

/** An integer setting: unset or empty → `fallback`; otherwise clamped to [min, max]. */
const ms = (fallback: number, min: number, max: number) =>
  z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce
      .number()
      .int()
      .default(fallback)
      .transform((v) => Math.min(max, Math.max(min, v))),
  );

const schema = z.object({
  /** PostgreSQL connection string; required by the server. */
  DATABASE_URL: z.string().trim().min(1, 'DATABASE_URL is required by the status service'),
  /** Role the status reads act as (set up by the migrator); empty: none, read-only transactions only. */
  LEASEBOARD_READER_ROLE: z.preprocess(
    (v) => (v === undefined ? READER_ROLE : v),
    z
      .string()
      .trim()
      .regex(/^([a-z_][a-z0-9_]{0,62})?$/, 'a plain lower-case role name, or empty for none'),
  ),
  /** Optional login of its own for the status reads (least privilege); default: DATABASE_URL as the reader role. */
  LEASEBOARD_READER_DATABASE_URL: z.preprocess((v) => (v === '' ? undefined : v), z.string().trim().min(1).optional()),
  /** Deadline of one store read (statement timeout and client-side race). Default 2,000 ms; 100 ms–30 s. */
  LEASEBOARD_READ_TIMEOUT_MS: ms(2_000, 100, 30_000),
  /** Poll interval the server tells clients to use. Default 2,000 ms; 500 ms–60 s. */
  LEASEBOARD_POLL_INTERVAL_MS: ms(2_000, 500, 60_000),
  /** How long one list read is shared by all list/metrics requests. Default 1,000 ms; 0 (off)–10 s. */
  LEASEBOARD_LIST_MAX_AGE_MS: ms(1_000, 0, 10_000),
  /** A standby further behind reads `behind`, and a read it answers is not used (all unknown). Default 10,000 ms; 100 ms–10 min. */
  LEASEBOARD_MAX_STANDBY_LAG_MS: ms(DEFAULT_MAX_STANDBY_LAG_MS, 100, 600_000),
  /** Connections for the list, metrics and healthz. Default 4; 1–20. */
  LEASEBOARD_STATUS_POOL_MAX: ms(4, 1, 20),
  /** Connections (and concurrent reads) for detail, history and audit: never shared with the list. Default 4; 1–20. */
  LEASEBOARD_HEAVY_POOL_MAX: ms(4, 1, 20),
  /** Heavy reads allowed to wait for a connection; more are refused (503 busy). Default 32; 0–1,000. */
  LEASEBOARD_HEAVY_QUEUE_MAX: ms(32, 0, 1_000),
  /** Heavy reads per client per 10 s; more get 429 with Retry-After. Default 40; 1–10,000. */
  LEASEBOARD_HEAVY_READS_PER_10S: ms(40, 1, 10_000),
  /** Alertmanager base URLs (comma-separated; the evaluator delivers to each): the first is linked from the dashboard. */
  ALERTMANAGER_URL: z.string().optional(),
});

/** LEASEBOARD_BASE_PATH, parsed once for every reader (lib/api/base-path.ts); a bad value is an EnvError naming it. */
export function parseBasePath(raw: string | undefined): string {
  try {
    return parseServedPath(raw);
  } catch (error) {
    if (error instanceof PublicUrlError) throw new EnvError(error.message);
    throw error;
  }
}

let basePath: string | null = null;

/** The prefix the dashboard is served under, parsed on first use (see parseBasePath). */
export function servedBasePath(): string {
  basePath ??= parseBasePath(process.env.LEASEBOARD_BASE_PATH);
  return basePath;
}

/** The first ALERTMANAGER_URL as a link base (no credentials, query or fragment; trailing slashes dropped), else null. */
function firstAlertmanager(raw: string | undefined): string | null {
  const first = raw
    ?.split(',')
    .map((part) => part.trim())
    .find((part) => part !== '');
  if (first === undefined) return null;
  try {
    const url = new URL(first);
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || url.search || url.hash) return null;
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return null;
  }
}

export interface ServerEnv {
  databaseUrl: string;
  /** Where status reads connect (read-only transactions, reader role). */
  readerDatabaseUrl: string;
  /** Role the reads act as, or null. */
  readerRole: string | null;
  readTimeoutMs: number;
  pollIntervalMs: number;
  listMaxAgeMs: number;
  maxStandbyLagMs: number;
  poolMax: number;
  heavyPoolMax: number;
  heavyQueueMax: number;
  heavyReadsPer10s: number;
  /** The first ALERTMANAGER_URL, for links (silence forms, its UI); null when unset or not a plain http(s) URL. */
  alertmanagerUrl: string | null;
  /** How long each kind of history is kept (LEASEBOARD_RETAIN_*): the horizon of `?at=` and history. */
  retention: RetentionPolicy;
  /** LEASEBOARD_BASE_PATH, normalised: '' or `/a/b` (parseBasePath). */
  basePath: string;
}

export class EnvError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(`env: ${message}`, options);
    this.name = 'EnvError';
  }
}

/** Pure: parse an environment record (exported for tests). */
export function parseServerEnv(env: Record<string, string | undefined>): ServerEnv {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new EnvError(`${first?.path.join('.') ?? '?'}: ${first?.message ?? 'invalid'}`);
  }
  const e = parsed.data;
  let retention: RetentionPolicy;
  try {
    retention = parseRetentionPolicy(env);
  } catch (error) {
    if (error instanceof RetentionConfigError) throw new EnvError(error.message, { cause: error });
    throw error;
  }
  return Object.freeze({
    databaseUrl: e.DATABASE_URL,
    readerDatabaseUrl: e.LEASEBOARD_READER_DATABASE_URL ?? e.DATABASE_URL,
    readerRole: e.LEASEBOARD_READER_ROLE === '' ? null : e.LEASEBOARD_READER_ROLE,
    readTimeoutMs: e.LEASEBOARD_READ_TIMEOUT_MS,
    pollIntervalMs: e.LEASEBOARD_POLL_INTERVAL_MS,
    // Never older than half a poll interval, whatever the setting.
    listMaxAgeMs: Math.min(e.LEASEBOARD_LIST_MAX_AGE_MS, Math.floor(e.LEASEBOARD_POLL_INTERVAL_MS / 2)),
    maxStandbyLagMs: e.LEASEBOARD_MAX_STANDBY_LAG_MS,
    poolMax: e.LEASEBOARD_STATUS_POOL_MAX,
    heavyPoolMax: e.LEASEBOARD_HEAVY_POOL_MAX,
    heavyQueueMax: e.LEASEBOARD_HEAVY_QUEUE_MAX,
    heavyReadsPer10s: e.LEASEBOARD_HEAVY_READS_PER_10S,
    alertmanagerUrl: firstAlertmanager(e.ALERTMANAGER_URL),
    retention,
    basePath: parseBasePath(env.LEASEBOARD_BASE_PATH),
  });
}

let cached: ServerEnv | null = null;

/** The process environment, parsed on first call. */
export function serverEnv(): ServerEnv {
  cached ??= parseServerEnv(process.env);
  return cached;
}
