/**
 * The routes of the HTTP API as the OpenAPI document tells them: for each
 * route under app/api, its method and path, its parameters, body and answers
 * as zod schemas (the bodies and answers are lib/api/schemas.ts's, the same
 * schemas that type the handlers). ./openapi.ts generates the document from
 * this list with @asteasolutions/zod-to-openapi.
 *
 * To add a route: bind it under app/api, then add its entry here (a path
 * parameter as `{name}`, each status it can answer with `json`, `error`,
 * `redirect`, and the refusal groups it shares). The contract test
 * (./contract.int.test.ts) fails while a route bound under app/api is missing
 * here or an entry here has no route, and while a status documented here is
 * produced by none of its cases.
 *
 * Guarantees: pure data; the caps in the descriptions and schemas are the
 * constants the handlers enforce, imported, never retyped.
 */
import type { ResponseConfig, RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import * as api from '../../api/schemas';
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, LIST_OFFSET_MAX, NAME_QUERY_MAX } from '../../api/list-query';
import { REASON_MAX_LENGTH } from '../../limits';
import { STRIP_WINDOWS } from '../../status/strip';
import { AUDIT_LIMIT_DEFAULT, AUDIT_LIMIT_MAX } from '../audit/read';
import { ALERTS_LIMIT_DEFAULT, ALERTS_LIMIT_MAX } from '../alerts/read';
import { describeDuration, DEFAULT_RETENTION, historyRetentionMs } from '../../retention';
import { NAME_MAX } from '../../http/params';
import { NO_STORE } from '../../http/respond';
import { SELECTOR_MAX_LENGTH, SELECTOR_MAX_REQUIREMENTS } from '../../limits/selector';
import { LABELS_MAX } from '../../limits/labels';
import { RELIABILITY_WINDOWS } from '../../status/reliability';
import { RUNS_LIMIT_DEFAULT, RUNS_LIMIT_MAX } from '../asof/runs';
import { UPCOMING_LIMIT_DEFAULT, UPCOMING_LIMIT_MAX } from '../asof/upcoming';
import { INCIDENT_MAX_DAYS } from '../asof/incident-span';

const noStore = { 'Cache-Control': { schema: { type: 'string' as const, const: NO_STORE } } };

const json = (schema: z.ZodType, description: string): ResponseConfig => ({
  description,
  headers: noStore,
  content: { 'application/json': { schema } },
});
const error = (description: string) => json(api.ApiErrorSchema, description);
const redirect = (description: string): ResponseConfig => ({ description, headers: { ...noStore, Location: { schema: { type: 'string' } } } });
const body = (schema: z.ZodType) => ({ required: true, content: { 'application/json': { schema } } });

const heavyRefusals = {
  429: error('Too many detail, history or audit reads from this client (Retry-After says when to try again)'),
  503: error('The status store could not be read, or too many heavy reads at once (`busy`, with Retry-After)'),
};
/** Every route that reads a body reads at most its limit (lib/http/body.ts), within a deadline. */
const bodyRefusals = {
  408: error('The body did not arrive in time (`body_timeout`)'),
  413: error('The body is larger than the route takes (`too_large`), refused before it is read when Content-Length says so'),
};
const operatorRefusals = {
  403: error('Cross-site request, or not an operator'),
};

const schedulerName = z
  .string()
  .min(1)
  .max(NAME_MAX)
  .meta({ description: `Scheduler (lease) name, 1–${NAME_MAX} characters, no control characters.` });
const byName = z.object({ name: schedulerName });
const windowId = z.object({
  id: z
    .string()
    .regex(/^[1-9][0-9]{0,15}$/)
    .meta({ description: 'The window number.' }),
});
const instant = (description: string) => z.iso.datetime({ offset: true }).optional().meta({ description });
const integer = (description: string, fallback: number) => z.number().int().default(fallback).meta({ description });
const healths = (description: string, example: string) => z.string().optional().meta({ description, example });
const search = (description: string) => z.string().max(NAME_QUERY_MAX).optional().meta({ description });
const names = (description: string) =>
  z
    .array(z.string().min(1).max(NAME_MAX))
    .max(LIST_LIMIT_MAX)
    .optional()
    .meta({ description, param: { explode: true } });

/** The default history retention, for the descriptions (the served instance's is set by LEASEBOARD_RETAIN_*). */
const defaultKept = describeDuration(historyRetentionMs(DEFAULT_RETENTION));
const outsideRetention = (what: string) =>
  error(
    `${what} older than the history kept (\`outside_retention\`): the message and \`error.retention\` name the oldest instant kept and the retention (default ${defaultKept}, LEASEBOARD_RETAIN_*)`,
  );
const operatorAction = 'operator role, same origin, header x-leaseboard-action: 1';

const selector = z
  .string()
  .max(SELECTOR_MAX_LENGTH)
  .optional()
  .meta({
    description: `A Kubernetes label selector: requirements joined by "," must all hold — k=v, k==v, k!=v, k in (a,b), k notin (a,b), k (present), !k (absent). At most ${SELECTOR_MAX_LENGTH} characters and ${SELECTOR_MAX_REQUIREMENTS} requirements; malformed → 400.`,
    example: 'team=payments,env!=dev',
  });
const reliabilityWindow = z
  .enum(RELIABILITY_WINDOWS)
  .default('24h')
  .meta({ description: 'The window, ending now: the last 24 h, or the last 7 or 30 whole UTC days and today so far; anything else → 400.' });
const exportFormat = z.enum(['json', 'csv']).default('json').meta({
  description: 'json, or csv (an attachment: a row per scheduler, then `(group)` for a group; `<health>_ms` and `<health>_fraction` columns).',
});
/** A report as JSON, or the same as CSV (format=csv). */
const reliabilityExport = (schema: z.ZodType, description: string): ResponseConfig => {
  const answer = json(schema, description);
  return { ...answer, content: { ...answer.content, 'text/csv': { schema: z.string() } } };
};

/** GET /api/v1/schedulers: the list query (lib/api/list-query.ts) as the server parses it (./params.ts). */
const listQuery = z.object({
  health: healths('Comma list of healths to keep.', 'stalled,unknown'),
  q: search(`Case-insensitive name substring (≤ ${NAME_QUERY_MAX} characters).`),
  name: names(`Repeated: only these exact names (at most ${LIST_LIMIT_MAX}), still in list order.`),
  limit: integer(`Page size, clamped to [1, ${LIST_LIMIT_MAX}].`, LIST_LIMIT_DEFAULT),
  offset: integer(`Clamped to [0, ${LIST_OFFSET_MAX}].`, 0),
  selector,
  group: z.string().optional().meta({
    description:
      'A label key: rows come grouped by its value (then the schedulers without it), and `groups` summarises each group by health. Malformed key → 400.',
    example: 'service',
  }),
});

/** GET /api/v1/strips: the window, then the names or the ranked read's list query. */
const stripsQuery = z.object({
  window: z.enum(STRIP_WINDOWS).default('1h').meta({ description: 'The window, ending now.' }),
  name: names(`Repeated: the schedulers to draw, in this order (at most ${LIST_LIMIT_MAX}). Without it the read is ranked.`),
  worst: healths('Ranked: comma list of worst healths to keep.', 'stalled,no_leader'),
  q: search(`Ranked: case-insensitive name substring (≤ ${NAME_QUERY_MAX} characters).`),
  limit: integer(`Ranked: page size, clamped to [1, ${LIST_LIMIT_MAX}].`, LIST_LIMIT_DEFAULT),
  offset: integer(`Ranked: clamped to [0, ${LIST_OFFSET_MAX}].`, 0),
});

export const API_ROUTES: readonly RouteConfig[] = [
  {
    method: 'get',
    path: '/api/v1/schedulers',
    operationId: 'listSchedulers',
    summary: 'All schedulers, worst health first, then name',
    request: { query: listQuery },
    responses: {
      200: json(api.SchedulerListResponseSchema, 'The page; when the store cannot be read, observation.ok is false and every scheduler is unknown.'),
      400: error('Invalid parameter'),
    },
  },
  {
    method: 'get',
    path: '/api/v1/schedulers/{name}',
    operationId: 'getScheduler',
    summary:
      'One scheduler: status, its conditions (LeaseHeld, Progressing, Observed, Enabled), recent tenures and stale-write rejections; as of `at` when given',
    request: {
      params: byName,
      query: z.object({
        at: instant(`Rebuild the status as of this instant from the logs (not in the future, not before the oldest instant kept: default ${defaultKept}).`),
      }),
    },
    responses: {
      200: json(api.SchedulerDetailResponseSchema, 'The status'),
      400: error('Invalid name or `at` (malformed, before 2000, in the future)'),
      404: error('Unknown scheduler'),
      410: outsideRetention('`at`'),
      ...heavyRefusals,
    },
  },
  {
    method: 'get',
    path: '/api/v1/schedulers/{name}/history',
    operationId: 'getSchedulerHistory',
    summary: 'Health segments, gaps, tenures and ≤ 360 buckets over [from, to] (default: the last hour, at most 24 h)',
    request: {
      params: byName,
      query: z.object({
        from: instant('Span start (default: to − 1 h, or the oldest instant kept if later).'),
        to: instant('Span end (default and ceiling: now).'),
      }),
    },
    responses: {
      200: json(api.SchedulerHistoryResponseSchema, 'The history'),
      400: error('Invalid name or span (inverted, longer than 24 h, in the future)'),
      404: error('Unknown scheduler'),
      410: outsideRetention('`from` (or, without it, `to`)'),
      ...heavyRefusals,
    },
  },
  {
    method: 'get',
    path: '/api/v1/schedulers/{name}/incident',
    operationId: 'getSchedulerIncident',
    summary: `What happened over [from, to] (at most ${INCIDENT_MAX_DAYS} days), oldest first, each line linked to its \`?at=\` moment: holders and epochs, lapses, health changes, refused stale writes, operator actions with their reasons, alert transitions — as JSON or Markdown`,
    request: {
      params: byName,
      query: z.object({
        from: z.iso.datetime({ offset: true }).meta({ description: 'Range start (required).' }),
        to: z.iso.datetime({ offset: true }).meta({ description: 'Range end (required; after now: clamped to now).' }),
        format: z.enum(['json', 'md']).default('json').meta({ description: 'json, or md (Markdown, as an attachment).' }),
      }),
    },
    responses: {
      200: {
        ...json(api.IncidentResponseSchema, 'The report'),
        content: { 'application/json': { schema: api.IncidentResponseSchema }, 'text/markdown': { schema: z.string() } },
      },
      400: error(
        `Invalid name, instant or format; \`to\` not after \`from\`, or \`from\` not before now (\`invalid_span\`); longer than ${INCIDENT_MAX_DAYS} days (\`range_too_long\`)`,
      ),
      404: error('Unknown scheduler'),
      410: outsideRetention('`from`'),
      ...heavyRefusals,
    },
  },
  {
    method: 'get',
    path: '/api/v1/strips',
    operationId: 'getStrips',
    summary:
      "Health strips over a window from the health rollup: of the schedulers named, or ranked by each one's worst health in the window (then name), filtered by it and paged",
    request: { query: stripsQuery },
    responses: {
      200: json(api.StripsResponseSchema, 'The strips'),
      400: error('Invalid window, name, health or number'),
      ...heavyRefusals,
    },
  },
  {
    method: 'post',
    path: '/api/v1/schedulers/{name}/intent',
    operationId: 'setSchedulerIntent',
    summary: `Disable or enable a scheduler (${operatorAction}); audited`,
    request: { params: byName, body: body(api.IntentRequestSchema) },
    responses: {
      200: json(api.IntentResponseSchema, 'Committed: from → to, by whom, when'),
      400: error(`Invalid name or body (reason missing or longer than ${REASON_MAX_LENGTH} characters…)`),
      ...operatorRefusals,
      404: error('Unknown scheduler'),
      409: error('Already in that state, or changed since the operator looked'),
      ...bodyRefusals,
    },
  },
  {
    method: 'put',
    path: '/api/v1/schedulers/{name}/labels',
    operationId: 'setSchedulerLabels',
    summary: `Set a scheduler's labels — they win over what it registers — or hand them back to its registration (labels: null) (${operatorAction}); audited`,
    request: { params: byName, body: body(api.LabelsRequestSchema) },
    responses: {
      200: json(api.LabelsResponseSchema, 'Committed: from → to, the labels now, by whom, when'),
      400: error(`Invalid name or body (a label key or value that breaks the rules, more than ${LABELS_MAX} labels, a missing reason…); nothing changed`),
      ...operatorRefusals,
      404: error('Unknown scheduler'),
      409: error('Already those labels, or changed since the operator looked'),
      ...bodyRefusals,
    },
  },
  {
    method: 'post',
    path: '/api/v1/schedulers/{name}/reports',
    operationId: 'postReport',
    summary:
      'A progress report from a program that cannot speak SQL (Authorization: Bearer <report token>); fenced: only the current epoch lands, through leaseboard_report',
    request: { params: byName, body: body(api.ReportRequestSchema) },
    responses: {
      200: json(api.ReportResponseSchema, 'Stored (or, the same seq again, already stored)'),
      400: error('Invalid name or body, a seq older than the last stored, a cursor going backwards within an occurrence'),
      401: error('No report token of this scheduler (none, malformed, wrong, revoked)'),
      409: error('stale_epoch: the epoch is not the current one (error.currentEpoch); nothing stored'),
      429: error('More than the per-token rate (Retry-After)'),
      ...bodyRefusals,
    },
  },
  {
    method: 'post',
    path: '/api/v1/schedulers/{name}/report-tokens',
    operationId: 'createReportToken',
    summary: `Mint a report token for a scheduler, shown once (${operatorAction}); audited`,
    request: { params: byName, body: body(api.ReportTokenRequestSchema) },
    responses: {
      201: json(api.ReportTokenResponseSchema, 'The token (only now) and its public id'),
      400: error('Invalid name or body (reason missing…)'),
      ...operatorRefusals,
      404: error('Unknown scheduler'),
      409: error('too_many_tokens: revoke one first'),
      ...bodyRefusals,
    },
  },
  {
    method: 'delete',
    path: '/api/v1/schedulers/{name}/report-tokens/{id}',
    operationId: 'revokeReportToken',
    summary: `Revoke a report token (${operatorAction}); audited`,
    request: {
      params: byName.extend({
        id: z
          .string()
          .regex(/^[0-9a-f]{12}$/)
          .meta({ description: 'The token’s public id.' }),
      }),
      body: body(api.ReportTokenRequestSchema),
    },
    responses: {
      200: json(api.ReportTokenResponseSchema, 'Revoked: by whom, when'),
      400: error('Invalid name, id or body'),
      ...operatorRefusals,
      404: error('No such token for this scheduler'),
      ...bodyRefusals,
    },
  },
  {
    method: 'get',
    path: '/api/v1/alerts',
    operationId: 'alerts',
    summary: 'Alert rules with their modes and counts, per-scheduler overrides, the alerts that are not inactive, and delivery to Alertmanager',
    request: {
      query: z.object({
        limit: z
          .number()
          .int()
          .min(0)
          .default(ALERTS_LIMIT_DEFAULT)
          .meta({ description: `Alerts (and overrides) listed, clamped to [0, ${ALERTS_LIMIT_MAX}]; 0: counts only.` }),
      }),
    },
    responses: { 200: json(api.AlertsResponseSchema, 'Rules, modes, alerts and delivery'), 400: error('Invalid limit'), ...heavyRefusals },
  },
  {
    method: 'put',
    path: '/api/v1/alerts/rules/{rule}/mode',
    operationId: 'setAlertMode',
    summary: `Set an alert rule's mode, or one scheduler's override (${operatorAction}); audited`,
    request: {
      params: z.object({ rule: z.string().min(1).max(64).meta({ description: 'The alert name, e.g. SchedulerStalled.' }) }),
      body: body(api.AlertModeRequestSchema),
    },
    responses: {
      200: json(api.AlertModeResponseSchema, 'Committed: from → to, by whom, when'),
      400: error(`Invalid rule name or body (reason missing or longer than ${REASON_MAX_LENGTH} characters, a scheduler for a service rule…)`),
      ...operatorRefusals,
      404: error('Unknown rule or scheduler'),
      409: error('Already in that mode, or changed since the operator looked'),
      ...bodyRefusals,
    },
  },
  {
    method: 'get',
    path: '/api/v1/maintenance-windows',
    operationId: 'listMaintenanceWindows',
    summary: 'Every maintenance window kept (at most 200: closed ones for 7 days), newest first, with where each stands now',
    responses: { 200: json(api.MaintenanceListResponseSchema, 'The windows'), ...heavyRefusals },
  },
  {
    method: 'post',
    path: '/api/v1/maintenance-windows',
    operationId: 'createMaintenanceWindow',
    summary: `Schedule a maintenance window for a label selector or a list of schedulers (${operatorAction}); audited. While open, the schedulers it covers read \`in maintenance\` beside their health and their alerts are not delivered`,
    request: { body: body(api.MaintenanceWindowRequestSchema) },
    responses: {
      201: json(api.MaintenanceChangeResponseSchema, 'Committed: the window, by whom, when'),
      400: error('Invalid body (a malformed selector, an end before the start or already past, a window over 30 days, a missing reason…); nothing changed'),
      ...operatorRefusals,
      409: error('Too many windows open or to come (`too_many_windows`)'),
      ...bodyRefusals,
    },
  },
  {
    method: 'put',
    path: '/api/v1/maintenance-windows/{id}',
    operationId: 'editMaintenanceWindow',
    summary: `Replace a scheduled or open window whole (${operatorAction}); audited`,
    request: { params: windowId, body: body(api.MaintenanceWindowRequestSchema) },
    responses: {
      200: json(api.MaintenanceChangeResponseSchema, 'Committed: from → to, by whom, when'),
      400: error('Invalid id or body; nothing changed'),
      ...operatorRefusals,
      404: error('No such window (`unknown_window`)'),
      409: error('The window ended or was cancelled (`window_closed`)'),
      ...bodyRefusals,
    },
  },
  {
    method: 'delete',
    path: '/api/v1/maintenance-windows/{id}',
    operationId: 'cancelMaintenanceWindow',
    summary: `Cancel a window: it closes at once (${operatorAction}); audited`,
    request: { params: windowId, body: body(api.MaintenanceCancelRequestSchema) },
    responses: {
      200: json(api.MaintenanceChangeResponseSchema, 'Committed: from → to, by whom, when'),
      400: error('Invalid id or body (reason missing…)'),
      ...operatorRefusals,
      404: error('No such window (`unknown_window`)'),
      409: error('The window ended or was cancelled already (`window_closed`)'),
      ...bodyRefusals,
    },
  },
  {
    method: 'post',
    path: '/api/v1/bulk/intent',
    operationId: 'setIntentBySelector',
    summary: `Disable or enable every scheduler a label selector matches, one reason for all, one audit row per scheduler changed (${operatorAction})`,
    request: { body: body(api.BulkIntentRequestSchema) },
    responses: {
      200: json(api.BulkIntentResponseSchema, 'Committed: which changed, which were already so'),
      400: error('A malformed or empty selector, a selector that matches nothing (`nothing_matched`), a missing reason; nothing changed'),
      ...operatorRefusals,
      409: error('Every matching scheduler is already so (`no_change`)'),
      ...bodyRefusals,
    },
  },
  {
    method: 'put',
    path: '/api/v1/teams/{team}/owner',
    operationId: 'setTeamOwner',
    summary: `Set the contact and runbook that the alerts of the schedulers labelled team=<team> carry as annotations (${operatorAction}); audited`,
    request: {
      params: z.object({ team: z.string().min(1).max(63).meta({ description: 'A label value (the `team` label).' }) }),
      body: body(api.TeamOwnerRequestSchema),
    },
    responses: {
      200: json(api.TeamOwnerResponseSchema, 'Committed: from → to, by whom, when'),
      400: error('A team that is not a label value, a missing contact or reason, a runbook that is not an http(s) URL; nothing changed'),
      ...operatorRefusals,
      409: error('Already these details, or too many teams'),
      ...bodyRefusals,
    },
  },
  {
    method: 'get',
    path: '/api/v1/audit',
    operationId: 'audit',
    summary:
      "Operator actions (scheduler intent and labels, alert modes, the demo's fault drills), newest first: who and how identified, what, from → to, why, when",
    request: {
      query: z.object({
        scheduler: z.string().max(NAME_MAX).optional().meta({ description: 'Only this scheduler.' }),
        limit: integer(`Clamped to [1, ${AUDIT_LIMIT_MAX}].`, AUDIT_LIMIT_DEFAULT),
      }),
    },
    responses: { 200: json(api.AuditResponseSchema, 'The audit trail'), 400: error('Invalid scheduler name'), ...heavyRefusals },
  },
  {
    method: 'get',
    path: '/api/v1/schedulers/{name}/reliability',
    operationId: 'getSchedulerReliability',
    summary: 'Time spent in each health over the window (from the health rollup; time nobody judged is unknown, never up), as JSON or CSV',
    request: { params: byName, query: z.object({ window: reliabilityWindow, format: exportFormat }) },
    responses: {
      200: reliabilityExport(api.ReliabilityResponseSchema, 'The report'),
      400: error('Invalid name, window or format'),
      404: error('Unknown scheduler'),
      ...heavyRefusals,
    },
  },
  {
    method: 'get',
    path: '/api/v1/schedulers/{name}/runs',
    operationId: 'getSchedulerRuns',
    summary: 'The next occurrence (its slot, or whenever the holder next runs) and the newest runs kept: duration, outcome, exit code',
    request: { params: byName, query: z.object({ limit: integer(`Runs, clamped to [1, ${RUNS_LIMIT_MAX}].`, RUNS_LIMIT_DEFAULT) }) },
    responses: {
      200: json(api.SchedulerRunsResponseSchema, 'The runs'),
      400: error('Invalid name or limit'),
      404: error('Unknown scheduler'),
      ...heavyRefusals,
    },
  },
  {
    method: 'get',
    path: '/api/v1/upcoming',
    operationId: 'getUpcoming',
    summary: 'What starts in the next hour: every registered scheduler whose next slot (or current slot not started yet) falls within it, soonest first',
    request: { query: z.object({ selector, limit: integer(`Runs, the soonest first, clamped to [1, ${UPCOMING_LIMIT_MAX}].`, UPCOMING_LIMIT_DEFAULT) }) },
    responses: { 200: json(api.UpcomingResponseSchema, 'The runs to come'), 400: error('Invalid selector or limit'), ...heavyRefusals },
  },
  {
    method: 'get',
    path: '/api/v1/reliability',
    operationId: 'getGroupReliability',
    summary: 'Time spent in each health over the window by every scheduler a label selector picks, each and summed, as JSON or CSV',
    request: { query: z.object({ window: reliabilityWindow, selector, format: exportFormat }) },
    responses: {
      200: reliabilityExport(api.GroupReliabilityResponseSchema, 'The report'),
      400: error('Invalid window, selector or format'),
      ...heavyRefusals,
    },
  },
  {
    method: 'post',
    path: '/api/v1/schedulers/{name}/run-now',
    operationId: 'runSchedulerNow',
    summary: `Ask the current holder to start an occurrence now (\`name@requestedAt\`), under its lease and fenced like any other; taken at its next poll, expired if not taken in time, never queued for a holder to come (${operatorAction}); audited`,
    request: { params: byName, body: body(api.RunNowRequestSchema) },
    responses: {
      202: json(api.RunNowResponseSchema, 'Requested: the holder and epoch asked, until when'),
      400: error(`Invalid name or body (a missing reason, longer than ${REASON_MAX_LENGTH} characters…); nothing requested`),
      ...operatorRefusals,
      404: error('Unknown scheduler'),
      409: error('Disabled (`scheduler_disabled`), nobody holds the lease (`no_holder`), or a request is already pending (`run_pending`); nothing requested'),
      ...bodyRefusals,
    },
  },
  {
    method: 'get',
    path: '/api/v1/tokens',
    operationId: 'listServiceTokens',
    summary: 'Service tokens, live first, with their last use; never a secret (admin only)',
    responses: { 200: json(api.ServiceTokenListSchema, 'Every service token kept'), 403: error('Not an admin') },
  },
  {
    method: 'post',
    path: '/api/v1/tokens',
    operationId: 'createServiceToken',
    summary:
      'Make a named service token with scopes (read, intents, maintenance, reports) for a list of schedulers or a label selector, shown once (admin only, same origin, header x-leaseboard-action: 1); audited',
    request: { body: body(api.ServiceTokenCreateRequestSchema) },
    responses: {
      201: json(api.ServiceTokenCreatedSchema, 'The token (only now) and what it may do'),
      400: error('Invalid body: name, scopes, schedulers or selector (exactly one), reason'),
      403: error('Cross-site request, or not an admin'),
      409: error('name_taken: a live token has this name; too_many_tokens: revoke one first'),
      ...bodyRefusals,
    },
  },
  {
    method: 'delete',
    path: '/api/v1/tokens/{id}',
    operationId: 'revokeServiceToken',
    summary: 'Revoke a service token: its next use gets 401 (admin only, same origin, header x-leaseboard-action: 1); audited',
    request: {
      params: z.object({
        id: z
          .string()
          .regex(/^[0-9a-f]{12}$/)
          .meta({ description: 'The token’s public id.' }),
      }),
      body: body(api.ServiceTokenRevokeRequestSchema),
    },
    responses: {
      200: json(api.ServiceTokenSchema, 'Revoked: when'),
      400: error('Invalid id or body'),
      403: error('Cross-site request, or not an admin'),
      404: error('No live token with this id'),
      ...bodyRefusals,
    },
  },
  {
    method: 'get',
    path: '/api/v1/session',
    operationId: 'session',
    summary: 'Who you are here',
    responses: { 200: json(api.SessionResponseSchema, 'Role and identity') },
  },
  {
    method: 'post',
    path: '/api/v1/session',
    operationId: 'signIn',
    summary: 'Exchange the local operator token for a session cookie (HttpOnly, SameSite=Strict; Secure and __Host- when LEASEBOARD_PUBLIC_URL is https)',
    request: { body: body(api.SignInRequestSchema) },
    responses: {
      200: json(api.SessionResponseSchema, 'Signed in'),
      400: error('Invalid body'),
      403: error('Cross-site request, or not the operator token'),
      404: error('Local sign-in is off'),
      429: error('Too many failed sign-ins from this client (Retry-After says when to try again)'),
      ...bodyRefusals,
    },
  },
  {
    method: 'delete',
    path: '/api/v1/session',
    operationId: 'signOut',
    summary: 'Sign out: the session ends on every instance, at once, and the cookie is cleared',
    responses: { 200: json(api.SessionResponseSchema, 'Signed out'), 403: error('Cross-site request') },
  },
  {
    method: 'get',
    path: '/api/v1/session/oidc/login',
    operationId: 'oidcSignIn',
    summary:
      'Start OpenID Connect sign-in: a sealed sign-in cookie (state, nonce, PKCE verifier; HttpOnly, SameSite=Lax, 10 min) and a redirect to the provider',
    request: {
      query: z.object({
        next: z.string().optional().meta({ description: 'A path of this dashboard to land on after signing in; anything else is /.' }),
      }),
    },
    responses: { 303: redirect('To the provider'), 404: error('OpenID Connect sign-in is off') },
  },
  {
    method: 'get',
    path: '/api/v1/session/oidc/callback',
    operationId: 'oidcCallback',
    summary: 'Back from the provider: the code is redeemed and the session opened only when the sign-in cookie, state, nonce and PKCE verify',
    request: { query: z.object({ code: z.string().optional(), state: z.string().optional() }) },
    responses: {
      303: redirect('Signed in: the session cookie is set, on to `next`'),
      400: error('Not signed in: no or a tampered sign-in cookie, a state or nonce that does not match, or the provider refused (`sign_in_failed`)'),
      403: error('Signed in at the provider, but no group has a role here'),
      404: error('OpenID Connect sign-in is off'),
    },
  },
  {
    method: 'get',
    path: '/api/metrics',
    operationId: 'metrics',
    summary: 'Prometheus text exposition; labels are only `scheduler` and a state',
    responses: { 200: { description: 'Metrics', content: { 'text/plain; version=0.0.4; charset=utf-8': { schema: z.string() } } } },
  },
  {
    method: 'get',
    path: '/api/healthz',
    operationId: 'healthz',
    summary: "The status service's own health: can it read the store, and how fast",
    responses: { 200: json(api.HealthzResponseSchema, 'Store readable'), 503: json(api.HealthzResponseSchema, 'Store unreadable (also carries `error`)') },
  },
  {
    method: 'get',
    path: '/api/v1/openapi.json',
    operationId: 'openapi',
    summary: 'This document',
    responses: { 200: { description: 'OpenAPI 3.1 document', content: { 'application/json': { schema: { type: 'object' } } } } },
  },
];
