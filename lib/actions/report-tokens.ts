/**
 * Report tokens, minted and revoked by operators (the credential of
 * `POST /api/v1/schedulers/{name}/reports`, lib/ingest).
 *
 * Guarantees
 * - Gated like every operator write (../auth/guard.ts: same origin, then the
 *   operator role; a limited identity needs the `reports` scope over the
 *   scheduler) before the body is read; a reason is required.
 * - One transaction per action, with its audit row (report_token_audit:
 *   who, how identified, which token, why, when): a token never exists, or
 *   stops existing, unaudited.
 * - The token is returned once, at creation; only its SHA-256 is stored.
 * - At most REPORT_TOKENS_PER_SCHEDULER per scheduler (409
 *   `too_many_tokens`: revoke one first), serialised per scheduler by an
 *   advisory lock, so the table stays bounded.
 * - Unknown scheduler (no registration and no lease) → 404; unknown token → 404.
 */
import { inTransaction } from '../../db/transaction';
import { ReportTokenRequestSchema } from '../api/schemas';
import type { ReportTokenResponse } from '../api/types';
import { authorizeScheduler, authorizeWrite } from '../auth/guard';
import { established } from '../auth/identity';
import { checkName } from '../http/params';
import { guarded, json } from '../http/respond';
import { mintReportToken, REPORT_TOKENS_PER_SCHEDULER } from '../ingest/tokens';
import type { ActionDeps } from './http';
import { BODY_LIMITS, fail, readBody, refuse } from './respond';

const TOKEN_ID = /^[0-9a-f]{12}$/;

/** POST /api/v1/schedulers/{name}/report-tokens — a new token for one scheduler, shown once. */
export function createReportTokenRoute(request: Request, rawName: string, deps: ActionDeps): Promise<Response> {
  return guarded('report-token-create', async () => {
    const gate = await authorizeWrite(deps, request.headers, deps.nowMs(), 'reports');
    if (!gate.ok) return refuse(gate.refusal);
    const name = checkName(rawName);
    if (!name.ok) return fail(400, name.error.code, name.error.message);
    const outside = await authorizeScheduler(deps.writer, gate.identity, name.value);
    if (outside !== null) return refuse(outside);
    const body = await readBody(request, ReportTokenRequestSchema, { maxBytes: BODY_LIMITS.reportToken, deadlineMs: deps.bodyDeadlineMs });
    if (!body.ok) return body.response;
    const minted = mintReportToken();
    let refusal: Response | null = null;
    const at = await inTransaction(
      deps.writer,
      async (client) => {
        await client.query(`SELECT pg_advisory_xact_lock(hashtext('leaseboard.report_tokens'), hashtext($1))`, [name.value]);
        const { rows } = await client.query<{ known: boolean; active: number }>(
          `SELECT EXISTS (SELECT 1 FROM schedulers WHERE name = $1) OR EXISTS (SELECT 1 FROM leases WHERE name = $1) AS known,
                (SELECT count(*)::int FROM report_tokens WHERE scheduler = $1) AS active`,
          [name.value],
        );
        const { known, active } = rows[0]!;
        if (!known) refusal = fail(404, 'unknown_scheduler', `no scheduler named ${name.value}`);
        else if (active >= REPORT_TOKENS_PER_SCHEDULER) {
          refusal = fail(409, 'too_many_tokens', `${name.value} has ${active} report tokens, the most allowed; revoke one first`);
        }
        if (refusal) return null;
        const made = await client.query<{ at: Date }>(
          `WITH made AS (
           INSERT INTO report_tokens (id, scheduler, secret_sha256, created_by, created_at) VALUES ($2, $1, $3, $4, clock_timestamp()) RETURNING created_at
         )
         INSERT INTO report_token_audit (scheduler, token_id, action, "by", identified_by, reason, at)
         SELECT $1, $2, 'create', $4, $5, $6, created_at FROM made RETURNING at`,
          [name.value, minted.id, minted.secretSha256, gate.identity.who, established(gate.identity), body.value.reason],
        );
        return made.rows[0]!.at;
      },
      (at) => at !== null,
    );
    if (at === null) return refusal!;
    const answer: ReportTokenResponse = { id: minted.id, scheduler: name.value, token: minted.token, by: gate.identity.who, at: at.toISOString() };
    return json(answer, 201);
  });
}

/** DELETE /api/v1/schedulers/{name}/report-tokens/{id} — revoke: the next report with it gets 401. */
export function revokeReportTokenRoute(request: Request, rawName: string, rawId: string, deps: ActionDeps): Promise<Response> {
  return guarded('report-token-revoke', async () => {
    const gate = await authorizeWrite(deps, request.headers, deps.nowMs(), 'reports');
    if (!gate.ok) return refuse(gate.refusal);
    const name = checkName(rawName);
    if (!name.ok) return fail(400, name.error.code, name.error.message);
    const outside = await authorizeScheduler(deps.writer, gate.identity, name.value);
    if (outside !== null) return refuse(outside);
    if (!TOKEN_ID.test(rawId)) return fail(400, 'invalid_parameter', 'id: a report token id (12 hex characters)');
    const body = await readBody(request, ReportTokenRequestSchema, { maxBytes: BODY_LIMITS.reportToken, deadlineMs: deps.bodyDeadlineMs });
    if (!body.ok) return body.response;
    const at = await inTransaction(
      deps.writer,
      async (client) => {
        const { rows } = await client.query<{ at: Date }>(
          `WITH gone AS (DELETE FROM report_tokens WHERE id = $2 AND scheduler = $1 RETURNING id)
         INSERT INTO report_token_audit (scheduler, token_id, action, "by", identified_by, reason, at)
         SELECT $1, id, 'revoke', $3, $4, $5, clock_timestamp() FROM gone RETURNING at`,
          [name.value, rawId, gate.identity.who, established(gate.identity), body.value.reason],
        );
        return rows[0]?.at ?? null;
      },
      (at) => at !== null,
    );
    if (at === null) return fail(404, 'not_found', `${name.value} has no report token ${rawId}`);
    const answer: ReportTokenResponse = { id: rawId, scheduler: name.value, token: null, by: gate.identity.who, at: at.toISOString() };
    return json(answer);
  });
}
