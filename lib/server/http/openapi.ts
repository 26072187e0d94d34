/**
 * GET /api/v1/openapi.json: a hand-written OpenAPI 3.1 description of exactly
 * the status routes and their shapes (./openapi-schemas.ts). Pure data.
 */
import { z } from 'zod';
import { auditResponseSchema, intentRequestSchema, intentResponseSchema, sessionResponseSchema, signInRequestSchema } from '../../api/actions';
import { SCHEMAS } from './openapi-schemas';

/** The operator-action shapes, generated from the zod schemas that validate and type them. */
const ACTION_SCHEMAS = Object.fromEntries(
  Object.entries({
    IntentRequest: intentRequestSchema,
    IntentResponse: intentResponseSchema,
    AuditResponse: auditResponseSchema,
    SessionResponse: sessionResponseSchema,
    SignInRequest: signInRequestSchema,
  }).map(([key, schema]) => [key, z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' })]),
);
const body = (schema: string) => ({ required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } } });
const writeRefusals = { 403: { description: 'Cross-site request, or not an operator' } };

const json = (schema: string, description: string) => ({
  description,
  headers: { 'Cache-Control': { schema: { type: 'string', const: 'no-store' } } },
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } },
});
const error = (description: string) => json('Error', description);
const nameParam = {
  name: 'name',
  in: 'path',
  required: true,
  description: 'Scheduler (lease) name, 1–200 characters, no control characters.',
  schema: { type: 'string', minLength: 1, maxLength: 200 },
};
const instant = (name: string, description: string) => ({ name, in: 'query', required: false, description, schema: { type: 'string', format: 'date-time' } });

export function openApiDocument() {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Leaseboard status API',
      version: '1.0.0',
      description: 'Who holds each scheduler lease, whether its holder makes progress, and where nobody can know. Times are ISO-8601 UTC from the database clock; ages are integer ms.',
    },
    paths: {
      '/api/v1/schedulers': {
        get: {
          operationId: 'listSchedulers',
          summary: 'All schedulers, worst health first, then name',
          parameters: [
            { name: 'health', in: 'query', required: false, description: 'Comma list of healths to keep.', schema: { type: 'string', example: 'stalled,unknown' } },
            { name: 'q', in: 'query', required: false, description: 'Case-insensitive name substring (≤ 200 characters).', schema: { type: 'string', maxLength: 200 } },
            { name: 'limit', in: 'query', required: false, description: 'Page size, clamped to [1, 500].', schema: { type: 'integer', default: 100 } },
            { name: 'offset', in: 'query', required: false, description: 'Clamped to [0, 1000000].', schema: { type: 'integer', default: 0 } },
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
          summary: 'One scheduler: status, recent tenures and stale-write rejections; as of `at` when given',
          parameters: [nameParam, instant('at', 'Rebuild the status as of this instant from the logs (not in the future, within 7 days).')],
          responses: {
            200: json('SchedulerDetailResponse', 'The status'),
            400: error('Invalid name or `at`'),
            404: error('Unknown scheduler'),
            503: error('The status store could not be read'),
          },
        },
      },
      '/api/v1/schedulers/{name}/history': {
        get: {
          operationId: 'getSchedulerHistory',
          summary: 'Health segments, gaps, tenures and ≤ 360 buckets over [from, to] (default: the last hour, at most 24 h)',
          parameters: [nameParam, instant('from', 'Span start (default: to − 1 h).'), instant('to', 'Span end (default and ceiling: now).')],
          responses: {
            200: json('SchedulerHistoryResponse', 'The history'),
            400: error('Invalid name or span (inverted, longer than 24 h, in the future, beyond retention)'),
            404: error('Unknown scheduler'),
            503: error('The status store could not be read'),
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
            400: error('Invalid body (reason missing or longer than 200 characters…)'),
            403: error('Cross-site request, or not an operator'),
            404: error('Unknown scheduler'),
            409: error('Already in that state, or changed since the operator looked'),
          },
        },
      },
      '/api/v1/audit': {
        get: {
          operationId: 'audit',
          summary: 'Operator actions, newest first: who, what, from → to, why, when',
          parameters: [
            { name: 'scheduler', in: 'query', required: false, description: 'Only this scheduler.', schema: { type: 'string', maxLength: 200 } },
            { name: 'limit', in: 'query', required: false, description: 'Clamped to [1, 500].', schema: { type: 'integer', default: 100 } },
          ],
          responses: { 200: json('AuditResponse', 'The audit trail'), 400: error('Invalid scheduler name'), 503: error('The status store could not be read') },
        },
      },
      '/api/v1/session': {
        get: { operationId: 'session', summary: 'Who you are here', responses: { 200: json('SessionResponse', 'Role and identity') } },
        post: {
          operationId: 'signIn',
          summary: 'Exchange the local operator token for a session cookie (HttpOnly, SameSite=Strict)',
          requestBody: body('SignInRequest'),
          responses: { 200: json('SessionResponse', 'Signed in'), 400: error('Invalid body'), ...writeRefusals, 404: error('Local sign-in is off') },
        },
        delete: { operationId: 'signOut', summary: 'Sign out', responses: { 200: json('SessionResponse', 'Signed out'), ...writeRefusals } },
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
        get: { operationId: 'openapi', summary: 'This document', responses: { 200: { description: 'OpenAPI 3.1 document', content: { 'application/json': {} } } } },
      },
    },
    components: { schemas: { ...SCHEMAS, ...ACTION_SCHEMAS } },
  };
}
