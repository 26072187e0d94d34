/**
 * GET /api/v1/openapi.json: the OpenAPI 3.1 description of the status routes.
 * The paths are written here; every schema is GENERATED from the zod schemas
 * that type the responses (lib/api/schemas.ts, zod's JSON Schema output,
 * draft 2020-12 as OpenAPI 3.1 uses), so the document cannot drift from the
 * types. lib/server/http/contract.int.test.ts validates live responses of
 * every route and status against the served document with ajv.
 *
 * Guarantees: pure and deterministic; built once per process.
 */
import { z } from 'zod';
import { apiRegistry } from '../../api/schemas';
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, LIST_OFFSET_MAX, NAME_QUERY_MAX } from '../live/list-params';
import { REASON_MAX_LENGTH } from '../../limits';
import { STRIP_WINDOWS } from '../../status/strip';
import { AUDIT_LIMIT_DEFAULT, AUDIT_LIMIT_MAX } from '../audit/read';
import { ALERTS_LIMIT_DEFAULT, ALERTS_LIMIT_MAX } from '../alerts/read';
import { describeDuration, DEFAULT_RETENTION, historyRetentionMs } from '../../retention';
import { NAME_MAX } from '../../http/params';
import { NO_STORE } from '../../http/respond';
import { SELECTOR_MAX_LENGTH, SELECTOR_MAX_REQUIREMENTS } from '../../limits/selector';
import { LABELS_MAX } from '../../limits/labels';

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });

/** Every component schema, from the registry; `$schema`/`$id` dropped (the document's dialect is 2020-12 already). */
function componentSchemas(): Record<string, object> {
  const { schemas } = z.toJSONSchema(apiRegistry, { target: 'draft-2020-12', io: 'output', uri: (id) => ref(id).$ref });
  return Object.fromEntries(
    Object.entries(schemas).map(([id, schema]) => {
      const rest: Record<string, unknown> = { ...schema };
      delete rest.$schema;
      delete rest.$id;
      return [id, rest];
    }),
  );
}

const body = (schema: string) => ({ required: true, content: { 'application/json': { schema: ref(schema) } } });

const json = (schema: string, description: string) => ({
  description,
  headers: { 'Cache-Control': { schema: { type: 'string', const: NO_STORE } } },
  content: { 'application/json': { schema: ref(schema) } },
});
const error = (description: string) => json('Error', description);
const redirect = (description: string) => ({
  description,
  headers: { 'Cache-Control': { schema: { type: 'string', const: NO_STORE } }, Location: { schema: { type: 'string' } } },
});
const heavyRefusals = {
  429: error('Too many detail, history or audit reads from this client (Retry-After says when to try again)'),
  503: error('The status store could not be read, or too many heavy reads at once (`busy`, with Retry-After)'),
};
/** Every route that reads a body reads at most its limit (lib/http/body.ts), within a deadline. */
const bodyRefusals = {
  408: error('The body did not arrive in time (`body_timeout`)'),
  413: error('The body is larger than the route takes (`too_large`), refused before it is read when Content-Length says so'),
};
const nameParam = {
  name: 'name',
  in: 'path',
  required: true,
  description: `Scheduler (lease) name, 1–${NAME_MAX} characters, no control characters.`,
  schema: { type: 'string', minLength: 1, maxLength: NAME_MAX },
};
const instant = (name: string, description: string) => ({ name, in: 'query', required: false, description, schema: { type: 'string', format: 'date-time' } });
/** The default history retention, for the descriptions (the served instance's is set by LEASEBOARD_RETAIN_*). */
const defaultKept = describeDuration(historyRetentionMs(DEFAULT_RETENTION));
const outsideRetention = (what: string) =>
  error(
    `${what} older than the history kept (\`outside_retention\`): the message and \`error.retention\` name the oldest instant kept and the retention (default ${defaultKept}, LEASEBOARD_RETAIN_*)`,
  );

function build() {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Leaseboard status API',
      version: '1.0.0',
      description:
        'Who holds each scheduler lease, whether its holder makes progress, and where nobody can know. Times are ISO-8601 UTC from the database clock; ages are integer ms.',
    },
    paths: {
      '/api/v1/schedulers': {
        get: {
          operationId: 'listSchedulers',
          summary: 'All schedulers, worst health first, then name',
          parameters: [
            {
              name: 'health',
              in: 'query',
              required: false,
              description: 'Comma list of healths to keep.',
              schema: { type: 'string', example: 'stalled,unknown' },
            },
            {
              name: 'q',
              in: 'query',
              required: false,
              description: `Case-insensitive name substring (≤ ${NAME_QUERY_MAX} characters).`,
              schema: { type: 'string', maxLength: NAME_QUERY_MAX },
            },
            {
              name: 'name',
              in: 'query',
              required: false,
              description: `Repeated: only these exact names (at most ${LIST_LIMIT_MAX}), still in list order.`,
              schema: { type: 'array', items: { type: 'string', minLength: 1, maxLength: NAME_MAX }, maxItems: LIST_LIMIT_MAX },
              explode: true,
            },
            {
              name: 'limit',
              in: 'query',
              required: false,
              description: `Page size, clamped to [1, ${LIST_LIMIT_MAX}].`,
              schema: { type: 'integer', default: LIST_LIMIT_DEFAULT },
            },
            { name: 'offset', in: 'query', required: false, description: `Clamped to [0, ${LIST_OFFSET_MAX}].`, schema: { type: 'integer', default: 0 } },
            {
              name: 'selector',
              in: 'query',
              required: false,
              description: `A Kubernetes label selector: requirements joined by "," must all hold — k=v, k==v, k!=v, k in (a,b), k notin (a,b), k (present), !k (absent). At most ${SELECTOR_MAX_LENGTH} characters and ${SELECTOR_MAX_REQUIREMENTS} requirements; malformed → 400.`,
              schema: { type: 'string', maxLength: SELECTOR_MAX_LENGTH, example: 'team=payments,env!=dev' },
            },
          ],
          responses: {
            200: json('SchedulerListResponse', 'The page; when the store cannot be read, observation.ok is false and every scheduler is unknown.'),
            400: error('Invalid parameter'),
          },
        },
      },
      '/api/v1/schedulers/{name}': {
        get: {
          operationId: 'getScheduler',
          summary:
            'One scheduler: status, its conditions (LeaseHeld, Progressing, Observed, Enabled), recent tenures and stale-write rejections; as of `at` when given',
          parameters: [
            nameParam,
            instant(
              'at',
              `Rebuild the status as of this instant from the logs (not in the future, not before the oldest instant kept: default ${defaultKept}).`,
            ),
          ],
          responses: {
            200: json('SchedulerDetailResponse', 'The status'),
            400: error('Invalid name or `at` (malformed, before 2000, in the future)'),
            404: error('Unknown scheduler'),
            410: outsideRetention('`at`'),
            ...heavyRefusals,
          },
        },
      },
      '/api/v1/schedulers/{name}/history': {
        get: {
          operationId: 'getSchedulerHistory',
          summary: 'Health segments, gaps, tenures and ≤ 360 buckets over [from, to] (default: the last hour, at most 24 h)',
          parameters: [
            nameParam,
            instant('from', 'Span start (default: to − 1 h, or the oldest instant kept if later).'),
            instant('to', 'Span end (default and ceiling: now).'),
          ],
          responses: {
            200: json('SchedulerHistoryResponse', 'The history'),
            400: error('Invalid name or span (inverted, longer than 24 h, in the future)'),
            404: error('Unknown scheduler'),
            410: outsideRetention('`from` (or, without it, `to`)'),
            ...heavyRefusals,
          },
        },
      },
      '/api/v1/strips': {
        get: {
          operationId: 'getStrips',
          summary:
            "Health strips over a window from the health rollup: of the schedulers named, or ranked by each one's worst health in the window (then name), filtered by it and paged",
          parameters: [
            {
              name: 'window',
              in: 'query',
              required: false,
              description: 'The window, ending now.',
              schema: { type: 'string', enum: [...STRIP_WINDOWS], default: '1h' },
            },
            {
              name: 'name',
              in: 'query',
              required: false,
              description: `Repeated: the schedulers to draw, in this order (at most ${LIST_LIMIT_MAX}). Without it the read is ranked.`,
              schema: { type: 'array', items: { type: 'string', minLength: 1, maxLength: NAME_MAX }, maxItems: LIST_LIMIT_MAX },
              explode: true,
            },
            {
              name: 'worst',
              in: 'query',
              required: false,
              description: 'Ranked: comma list of worst healths to keep.',
              schema: { type: 'string', example: 'stalled,no_leader' },
            },
            {
              name: 'q',
              in: 'query',
              required: false,
              description: `Ranked: case-insensitive name substring (≤ ${NAME_QUERY_MAX} characters).`,
              schema: { type: 'string', maxLength: NAME_QUERY_MAX },
            },
            {
              name: 'limit',
              in: 'query',
              required: false,
              description: `Ranked: page size, clamped to [1, ${LIST_LIMIT_MAX}].`,
              schema: { type: 'integer', default: LIST_LIMIT_DEFAULT },
            },
            {
              name: 'offset',
              in: 'query',
              required: false,
              description: `Ranked: clamped to [0, ${LIST_OFFSET_MAX}].`,
              schema: { type: 'integer', default: 0 },
            },
          ],
          responses: {
            200: json('StripsResponse', 'The strips'),
            400: error('Invalid window, name, health or number'),
            ...heavyRefusals,
          },
        },
      },
      '/api/v1/schedulers/{name}/intent': {
        post: {
          operationId: 'setSchedulerIntent',
          summary: 'Disable or enable a scheduler (operator role, same origin, header x-leaseboard-action: 1); audited',
          parameters: [nameParam],
          requestBody: body('IntentRequest'),
          responses: {
            200: json('IntentResponse', 'Committed: from → to, by whom, when'),
            400: error(`Invalid name or body (reason missing or longer than ${REASON_MAX_LENGTH} characters…)`),
            403: error('Cross-site request, or not an operator'),
            404: error('Unknown scheduler'),
            409: error('Already in that state, or changed since the operator looked'),
            ...bodyRefusals,
          },
        },
      },
      '/api/v1/schedulers/{name}/labels': {
        put: {
          operationId: 'setSchedulerLabels',
          summary:
            "Set a scheduler's labels — they win over what it registers — or hand them back to its registration (labels: null) (operator role, same origin, header x-leaseboard-action: 1); audited",
          parameters: [nameParam],
          requestBody: body('LabelsRequest'),
          responses: {
            200: json('LabelsResponse', 'Committed: from → to, the labels now, by whom, when'),
            400: error(`Invalid name or body (a label key or value that breaks the rules, more than ${LABELS_MAX} labels, a missing reason…); nothing changed`),
            403: error('Cross-site request, or not an operator'),
            404: error('Unknown scheduler'),
            409: error('Already those labels, or changed since the operator looked'),
            ...bodyRefusals,
          },
        },
      },
      '/api/v1/schedulers/{name}/reports': {
        post: {
          operationId: 'postReport',
          summary:
            'A progress report from a program that cannot speak SQL (Authorization: Bearer <report token>); fenced: only the current epoch lands, through leaseboard_report',
          parameters: [nameParam],
          requestBody: body('ReportRequest'),
          responses: {
            200: json('ReportResponse', 'Stored (or, the same seq again, already stored)'),
            400: error('Invalid name or body, a seq older than the last stored, a cursor going backwards within an occurrence'),
            401: error('No report token of this scheduler (none, malformed, wrong, revoked)'),
            409: error('stale_epoch: the epoch is not the current one (error.currentEpoch); nothing stored'),
            429: error('More than the per-token rate (Retry-After)'),
            ...bodyRefusals,
          },
        },
      },
      '/api/v1/schedulers/{name}/report-tokens': {
        post: {
          operationId: 'createReportToken',
          summary: 'Mint a report token for a scheduler, shown once (operator role, same origin, header x-leaseboard-action: 1); audited',
          parameters: [nameParam],
          requestBody: body('ReportTokenRequest'),
          responses: {
            201: json('ReportTokenResponse', 'The token (only now) and its public id'),
            400: error('Invalid name or body (reason missing…)'),
            403: error('Cross-site request, or not an operator'),
            404: error('Unknown scheduler'),
            409: error('too_many_tokens: revoke one first'),
            ...bodyRefusals,
          },
        },
      },
      '/api/v1/schedulers/{name}/report-tokens/{id}': {
        delete: {
          operationId: 'revokeReportToken',
          summary: 'Revoke a report token (operator role, same origin, header x-leaseboard-action: 1); audited',
          parameters: [
            nameParam,
            { name: 'id', in: 'path', required: true, description: 'The token’s public id.', schema: { type: 'string', pattern: '^[0-9a-f]{12}$' } },
          ],
          requestBody: body('ReportTokenRequest'),
          responses: {
            200: json('ReportTokenResponse', 'Revoked: by whom, when'),
            400: error('Invalid name, id or body'),
            403: error('Cross-site request, or not an operator'),
            404: error('No such token for this scheduler'),
            ...bodyRefusals,
          },
        },
      },
      '/api/v1/alerts': {
        get: {
          operationId: 'alerts',
          summary: 'Alert rules with their modes and counts, per-scheduler overrides, the alerts that are not inactive, and delivery to Alertmanager',
          parameters: [
            {
              name: 'limit',
              in: 'query',
              required: false,
              description: `Alerts (and overrides) listed, clamped to [0, ${ALERTS_LIMIT_MAX}]; 0: counts only.`,
              schema: { type: 'integer', default: ALERTS_LIMIT_DEFAULT, minimum: 0 },
            },
          ],
          responses: { 200: json('AlertsResponse', 'Rules, modes, alerts and delivery'), 400: error('Invalid limit'), ...heavyRefusals },
        },
      },
      '/api/v1/alerts/rules/{rule}/mode': {
        put: {
          operationId: 'setAlertMode',
          summary: "Set an alert rule's mode, or one scheduler's override (operator role, same origin, header x-leaseboard-action: 1); audited",
          parameters: [
            {
              name: 'rule',
              in: 'path',
              required: true,
              description: 'The alert name, e.g. SchedulerStalled.',
              schema: { type: 'string', minLength: 1, maxLength: 64 },
            },
          ],
          requestBody: body('AlertModeRequest'),
          responses: {
            200: json('AlertModeResponse', 'Committed: from → to, by whom, when'),
            400: error(`Invalid rule name or body (reason missing or longer than ${REASON_MAX_LENGTH} characters, a scheduler for a service rule…)`),
            403: error('Cross-site request, or not an operator'),
            404: error('Unknown rule or scheduler'),
            409: error('Already in that mode, or changed since the operator looked'),
            ...bodyRefusals,
          },
        },
      },
      '/api/v1/audit': {
        get: {
          operationId: 'audit',
          summary:
            "Operator actions (scheduler intent and labels, alert modes, the demo's fault drills), newest first: who and how identified, what, from → to, why, when",
          parameters: [
            { name: 'scheduler', in: 'query', required: false, description: 'Only this scheduler.', schema: { type: 'string', maxLength: NAME_MAX } },
            {
              name: 'limit',
              in: 'query',
              required: false,
              description: `Clamped to [1, ${AUDIT_LIMIT_MAX}].`,
              schema: { type: 'integer', default: AUDIT_LIMIT_DEFAULT },
            },
          ],
          responses: { 200: json('AuditResponse', 'The audit trail'), 400: error('Invalid scheduler name'), ...heavyRefusals },
        },
      },
      '/api/v1/session': {
        get: { operationId: 'session', summary: 'Who you are here', responses: { 200: json('SessionResponse', 'Role and identity') } },
        post: {
          operationId: 'signIn',
          summary: 'Exchange the local operator token for a session cookie (HttpOnly, SameSite=Strict; Secure and __Host- when LEASEBOARD_PUBLIC_URL is https)',
          requestBody: body('SignInRequest'),
          responses: {
            200: json('SessionResponse', 'Signed in'),
            400: error('Invalid body'),
            403: error('Cross-site request, or not the operator token'),
            404: error('Local sign-in is off'),
            429: error('Too many failed sign-ins from this client (Retry-After says when to try again)'),
            ...bodyRefusals,
          },
        },
        delete: {
          operationId: 'signOut',
          summary: 'Sign out: the session ends on every instance, at once, and the cookie is cleared',
          responses: { 200: json('SessionResponse', 'Signed out'), 403: error('Cross-site request') },
        },
      },
      '/api/v1/session/oidc/login': {
        get: {
          operationId: 'oidcSignIn',
          summary:
            'Start OpenID Connect sign-in: a sealed sign-in cookie (state, nonce, PKCE verifier; HttpOnly, SameSite=Lax, 10 min) and a redirect to the provider',
          parameters: [
            {
              name: 'next',
              in: 'query',
              required: false,
              description: 'A path of this dashboard to land on after signing in; anything else is /.',
              schema: { type: 'string' },
            },
          ],
          responses: { 303: redirect('To the provider'), 404: error('OpenID Connect sign-in is off') },
        },
      },
      '/api/v1/session/oidc/callback': {
        get: {
          operationId: 'oidcCallback',
          summary: 'Back from the provider: the code is redeemed and the session opened only when the sign-in cookie, state, nonce and PKCE verify',
          parameters: [
            { name: 'code', in: 'query', required: false, schema: { type: 'string' } },
            { name: 'state', in: 'query', required: false, schema: { type: 'string' } },
          ],
          responses: {
            303: redirect('Signed in: the session cookie is set, on to `next`'),
            400: error('Not signed in: no or a tampered sign-in cookie, a state or nonce that does not match, or the provider refused (`sign_in_failed`)'),
            403: error('Signed in at the provider, but no group has a role here'),
            404: error('OpenID Connect sign-in is off'),
          },
        },
      },
      '/api/metrics': {
        get: {
          operationId: 'metrics',
          summary: 'Prometheus text exposition; labels are only `scheduler` and a state',
          responses: { 200: { description: 'Metrics', content: { 'text/plain; version=0.0.4; charset=utf-8': { schema: { type: 'string' } } } } },
        },
      },
      '/api/healthz': {
        get: {
          operationId: 'healthz',
          summary: "The status service's own health: can it read the store, and how fast",
          responses: { 200: json('HealthzResponse', 'Store readable'), 503: json('HealthzResponse', 'Store unreadable (also carries `error`)') },
        },
      },
      '/api/v1/openapi.json': {
        get: {
          operationId: 'openapi',
          summary: 'This document',
          responses: { 200: { description: 'OpenAPI 3.1 document', content: { 'application/json': {} } } },
        },
      },
    },
    components: { schemas: componentSchemas() },
  };
}

export type OpenApiDocument = ReturnType<typeof build>;

let built: OpenApiDocument | null = null;

export function openApiDocument(): OpenApiDocument {
  built ??= build();
  return built;
}
