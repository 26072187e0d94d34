/**
 * `POST /api/v1/schedulers/{name}/reports`: progress reports over HTTP, for
 * programs that cannot speak SQL (a script under `leaseboard run` or
 * examples/shell/under-lease.sh, which hand it LEASEBOARD_EPOCH). Framework-free:
 * `Request` in, `Response` out, dependencies injected; app/api binds it.
 *
 * Guarantees
 * - Authenticated by a report token of THIS scheduler (./tokens.ts): none,
 *   malformed, unknown, revoked or another scheduler's → 401, nothing read further.
 * - Before any database work or reading the body: a token that is not of our
 *   shape is refused (401), and a client past its budget of refused tokens
 *   (lib/http/token-refusals.ts: 20 per 60 s, each attempt spending a point until its
 *   token is proven) gets 429 with Retry-After — so made-up
 *   tokens cost a lookup each only up to that budget, and cannot take the
 *   ingest's connections from the programs that report. Every refusal is
 *   counted and logged per client per interval, never the token.
 * - Fenced like every report: in one transaction the lease row is share-locked
 *   (as leaseboard_fence does), so no takeover commits between the check and
 *   the write; an epoch that is not the lease's current one → 409
 *   `stale_epoch` with `currentEpoch`, nothing stored. Of two clients racing
 *   with different epochs, only the current one's report lands.
 * - Written by the protocol's own function (leaseboard_report), so the break
 *   rule, the summary and the as-of log are exactly a library report's.
 * - Within an epoch: the same `seq` again is a retry (200, `stored: false`,
 *   nothing stored twice); an older one → 400 `invalid_seq`; a cursor going
 *   backwards within the same occurrence → 400 `cursor_backwards`. A body
 *   over REPORT_BODY_MAX_BYTES → 413; any other bad body (labels that break
 *   lib/limits/labels.ts included) → 400. Nothing is stored for any refusal.
 * - `labels`, when given with a stored report, become the scheduler's declared
 *   labels (as a registration's do; a registered scheduler only, and an
 *   operator's labels still win); the same labels again write nothing.
 * - At most REPORTS_PER_TOKEN (or LEASEBOARD_REPORTS_PER_TOKEN_PER_10S, lib/config) per REPORT_WINDOW_S per token (429 with
 *   Retry-After), counted after authentication, so nobody can spend another
 *   token's budget by naming its public id.
 * Not guaranteed: that the program holds the lease now — a report carries
 * progress, never authority; an expired holder's reports are stored and the
 * status judges liveness from the lease.
 */
import type pg from 'pg';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { ReportRequestSchema } from '../api/schemas';
import type { ReportRequest, ReportResponse } from '../api/types';
import { fail, readBody } from '../http/json-body';
import { clientKey } from '../http/client-key';
import { checkName } from '../http/params';
import type { ProxyTrust } from '../http/proxies';
import { guarded, json } from '../http/respond';
import { inTransaction } from '../../db/transaction';
import type { TokenRefusals } from '../http/token-refusals';
import { presentedToken, secretMatches } from './tokens';
import { retryAfterSeconds } from '../http/retry-after';

/** Room for a report and a full label set (32 labels of the longest keys and values). */
const REPORT_BODY_MAX_BYTES = 16_384;
const REPORTS_PER_TOKEN = 100;
const REPORT_WINDOW_S = 10;

export interface IngestDeps {
  /** Connections as the schedulers' role (reports are the protocol's rows). */
  db: Pick<pg.Pool, 'connect'>;
  limiter: RateLimiterMemory;
  /** Refused tokens per client: the failure budget and the aggregate log (lib/http/token-refusals.ts). */
  refusals: TokenRefusals;
  /** Whose failure budget a request spends (lib/http/client-key.ts). */
  trust: ProxyTrust;
  bodyDeadlineMs?: number;
}

export function reportLimiter(points = REPORTS_PER_TOKEN): RateLimiterMemory {
  return new RateLimiterMemory({ points, duration: REPORT_WINDOW_S });
}

const UNAUTHORIZED = () =>
  fail(401, 'unauthorized', 'a report token of this scheduler is required: Authorization: Bearer lbr_…', { 'www-authenticate': 'Bearer' });

interface Current {
  epoch: number;
  summary_epoch: number | null;
  last_seq: number | null;
  in_flight: string | null;
  cursor: number | null;
}

export function reportRoute(request: Request, rawName: string, deps: IngestDeps): Promise<Response> {
  return guarded('report', async () => {
    const name = checkName(rawName);
    if (!name.ok) return fail(400, name.error.code, name.error.message);
    const caller = clientKey(deps.trust, request.headers);
    const blockedForS = await deps.refusals.attempt(caller);
    if (blockedForS !== null) {
      return fail(429, 'rate_limited', `too many refused report tokens from this client; retry in ${blockedForS} s`, { 'retry-after': String(blockedForS) });
    }
    const token = presentedToken(request.headers.get('authorization'));
    if (token === null) {
      deps.refusals.failed(caller);
      return UNAUTHORIZED();
    }
    // The body (at most 16 KB) before a connection: a slow sender never holds one.
    const body = await readBody(request, ReportRequestSchema, { maxBytes: REPORT_BODY_MAX_BYTES, deadlineMs: deps.bodyDeadlineMs });
    if (!body.ok) return body.response;
    // One transaction: the token, then the epoch and the stream under the lease row's share lock, then the write.
    return inTransaction(
      deps.db,
      async (client) => {
        const stored = await client.query<{ secret_sha256: string }>({
          text: 'SELECT secret_sha256 FROM report_tokens WHERE id = $1 AND scheduler = $2',
          values: [token.id, name.value],
        });
        if (!stored.rows[0] || !secretMatches(token, stored.rows[0].secret_sha256)) {
          deps.refusals.failed(caller);
          return UNAUTHORIZED();
        }
        await deps.refusals.proven(caller);
        try {
          await deps.limiter.consume(token.id);
        } catch (refusal) {
          if (!(refusal instanceof RateLimiterRes)) throw refusal;
          const retryAfterS = retryAfterSeconds(refusal);
          return fail(429, 'rate_limited', `at most ${deps.limiter.points} reports per ${REPORT_WINDOW_S} s per token`, {
            'retry-after': String(retryAfterS),
          });
        }
        return storeReport(client, name.value, token.id, body.value);
      },
      (answer) => answer.status === 200,
    );
  });
}

/** Inside the caller's transaction: check the epoch and the stream under the lease row's share lock, then write. */
async function storeReport(client: pg.PoolClient, lease: string, tokenId: string, report: ReportRequest): Promise<Response> {
  const { rows } = await client.query<Current>({
    text: `SELECT l.epoch::float8 AS epoch, s.epoch::float8 AS summary_epoch, s.last_seq, s.in_flight, s.cursor::float8 AS cursor
           FROM leases l LEFT JOIN progress_summaries s ON s.lease = l.name WHERE l.name = $1 FOR SHARE OF l`,
    values: [lease],
  });
  const current = rows[0];
  if (!current || current.epoch !== report.epoch) {
    const currentEpoch = current?.epoch ?? null;
    return json(
      {
        error: {
          code: 'stale_epoch',
          message: `epoch ${report.epoch} is not ${lease}'s current epoch (${currentEpoch ?? 'none'}): nothing stored`,
          currentEpoch,
        },
      },
      409,
    );
  }
  if (current.summary_epoch === report.epoch && current.last_seq !== null) {
    if (report.seq === current.last_seq) return json({ stored: false, advanced: false, reportedAt: null } satisfies ReportResponse);
    if (report.seq < current.last_seq)
      return fail(400, 'invalid_seq', `seq ${report.seq} is older than the last stored (${current.last_seq}) in epoch ${report.epoch}`);
    const sameOccurrence = report.occurrence !== null && report.occurrence === current.in_flight;
    if (sameOccurrence && report.cursor !== null && current.cursor !== null && report.cursor < current.cursor) {
      return fail(400, 'cursor_backwards', `cursor ${report.cursor} is behind ${current.cursor} in ${report.occurrence}`);
    }
  }
  const written = await client.query<{ advanced: boolean; reported_at: Date }>({
    text: 'SELECT advanced, reported_at FROM leaseboard_report($1, $2, $3, $4, $5, $6)',
    values: [lease, report.epoch, report.seq, report.occurrence, report.cursor, report.reportEveryMs],
  });
  const row = written.rows[0]!;
  await client.query({ text: 'UPDATE report_tokens SET last_used_at = $2 WHERE id = $1', values: [tokenId, row.reported_at] });
  if (report.labels !== undefined) {
    // Declared as a registration declares them; written only when they differ, so a report that repeats them stamps no change.
    await client.query({
      text: 'UPDATE schedulers SET labels = $2::jsonb WHERE name = $1 AND labels IS DISTINCT FROM $2::jsonb',
      values: [lease, JSON.stringify(report.labels)],
    });
  }
  return json({ stored: true, advanced: row.advanced, reportedAt: row.reported_at.toISOString() } satisfies ReportResponse);
}
