/**
 * The status service's environment, parsed once, validated and typed.
 *
 * Guarantees: `serverEnv()` parses `process.env` on first use and returns the
 * same frozen object afterwards; a missing or malformed value throws
 * `EnvError` naming the variable (never echoing a secret). Names, units,
 * defaults and ranges are the configuration schema's (lib/config); a value
 * out of range is refused, never clamped. The retention policy (`LEASEBOARD_RETAIN_*`, lib/retention) is read here too,
 * so `?at=` and history answer 410 past the same horizon the pruner uses; a
 * bad value is refused (never clamped), the EnvError naming the variable.
 * `LEASEBOARD_BASE_PATH` (the prefix the dashboard is served under) is parsed
 * here too, and is the one reading of it in the process (`servedBasePath`,
 * which needs no DATABASE_URL: the HTTP server and the layout read it before
 * any data); only next.config.js reads the variable itself, before any of
 * this code runs.
 * Non-guarantees: later changes to `process.env` are not seen.
 */
import { checkedEnv, config, type Env, formatDuration, SETTINGS, settingsOf } from '../config';
import { parseRetentionPolicy, RetentionConfigError, type RetentionPolicy } from '../retention';
import { parseBasePath as parseServedPath } from '../api/base-path';
import { PublicUrlError } from '../api/public-url-error';
import { parsePublicUrl } from '../api/public-url';

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
  basePath ??= parseBasePath(config().settings.basePath ?? undefined);
  return basePath;
}

let publicUrl: { url: string | null } | null = null;

/** LEASEBOARD_PUBLIC_URL (or its deprecated aliases), with the base path; null when unset (links then follow the request's origin). */
export function servedPublicUrl(): string | null {
  if (publicUrl === null) {
    try {
      publicUrl = { url: parsePublicUrl(checkedEnv())?.url ?? null };
    } catch (error) {
      if (error instanceof PublicUrlError) throw new EnvError(error.message);
      throw error;
    }
  }
  return publicUrl.url;
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
export function parseServerEnv(env: Env): ServerEnv {
  const setting = settingsOf(env, (variable, problem) => new EnvError(`${variable}: ${problem}`));
  const databaseUrl = setting('databaseUrl')?.trim();
  if (!databaseUrl) throw new EnvError('DATABASE_URL: DATABASE_URL is required by the status service');
  const readerRole = setting('readerRole');
  const pollIntervalMs = setting('pollInterval');
  // Unset, a shared list read is at most 1 s old and never older than half a poll (the default follows the
  // poll interval); set, a value older than half a poll would show every dashboard a stale poll: refused.
  const listMaxAgeSet = (env[SETTINGS.listMaxAge.env]?.trim() ?? '') !== '';
  const listMaxAgeMs = listMaxAgeSet ? setting('listMaxAge') : Math.min(SETTINGS.listMaxAge.default, Math.floor(pollIntervalMs / 2));
  if (listMaxAgeMs > pollIntervalMs / 2) {
    throw new EnvError(
      `LEASEBOARD_LIST_MAX_AGE: ${formatDuration(listMaxAgeMs)} is more than half LEASEBOARD_POLL_INTERVAL (${formatDuration(pollIntervalMs)})`,
    );
  }
  let retention: RetentionPolicy;
  try {
    retention = parseRetentionPolicy(env);
  } catch (error) {
    if (error instanceof RetentionConfigError) throw new EnvError(error.message, { cause: error });
    throw error;
  }
  return Object.freeze({
    databaseUrl,
    readerDatabaseUrl: setting('readerDatabaseUrl')?.trim() || databaseUrl,
    readerRole: readerRole === '' ? null : readerRole,
    readTimeoutMs: setting('readTimeout'),
    pollIntervalMs,
    listMaxAgeMs,
    maxStandbyLagMs: setting('maxStandbyLag'),
    poolMax: setting('statusPoolMax'),
    heavyPoolMax: setting('heavyPoolMax'),
    heavyQueueMax: setting('heavyQueueMax'),
    heavyReadsPer10s: setting('heavyReadsPer10s'),
    alertmanagerUrl: firstAlertmanager(setting('alertmanagerUrl') ?? undefined),
    retention,
    basePath: parseBasePath(setting('basePath') ?? undefined),
  });
}

let cached: ServerEnv | null = null;

/** The process environment (checked by lib/config), parsed on first call. */
export function serverEnv(): ServerEnv {
  cached ??= parseServerEnv(checkedEnv());
  return cached;
}
