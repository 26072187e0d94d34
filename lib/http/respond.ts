/**
 * HTTP responses of Leaseboard's API, shared by the status reads
 * (lib/server/http) and the operator actions (lib/actions): JSON bodies, the
 * `{ error: { code, message } }` shape, and `Cache-Control: no-store` on every
 * response (a status page must never be served from a cache).
 *
 * Guarantees: `guarded` turns ANY thrown value into a 500 with the error
 * shape and a fixed message — never a stack trace or SQL text to the client;
 * with tracing on (lib/telemetry), each guarded route is one server span,
 * parent of the reads and queries it makes.
 */
import type { ApiError, ErrorCode, RetentionRefusal } from '../api/types';
import { SpanKind, traced } from '../telemetry/span';

/** An answer that is not a success, as the API sends it: the status, the contract's error code and a sentence for humans. */
export interface HttpError {
  status: 400 | 403 | 404 | 409 | 410 | 413 | 429 | 500 | 503;
  code: ErrorCode;
  /** A short sentence — never a stack trace, never SQL text. */
  message: string;
  /** With 410 `outside_retention`: the oldest instant kept and the retention. */
  retention?: RetentionRefusal;
  /** With 429 and 503 `busy`: when to try again (seconds), sent as Retry-After. */
  retryAfterS?: number;
}

export const NO_STORE = 'no-store';

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': NO_STORE, ...headers },
  });
}

/** A body already serialized as JSON (and encoded: shared bytes are sent as they are). */
export function jsonText(body: string | Uint8Array<ArrayBuffer>, status = 200): Response {
  return new Response(body, { status, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': NO_STORE } });
}

export function text(body: string | Uint8Array<ArrayBuffer>, contentType: string, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { 'content-type': contentType, 'cache-control': NO_STORE, ...headers } });
}

export function errorResponse(error: HttpError): Response {
  const body: ApiError = { error: { code: error.code, message: error.message, ...(error.retention ? { retention: error.retention } : {}) } };
  return json(body, error.status, error.retryAfterS === undefined ? {} : { 'retry-after': String(error.retryAfterS) });
}

export function badRequest(message: string): Response {
  return errorResponse({ status: 400, code: 'invalid_parameter', message });
}

/** Runs `handler`; an unexpected throw becomes a bare 500 in the error shape, logged server-side. */
export async function guarded(route: string, handler: () => Promise<Response>): Promise<Response> {
  return traced(
    `route ${route}`,
    { 'leaseboard.route': route },
    async () => {
      try {
        return await handler();
      } catch (error) {
        console.error(`status api: ${route}: unexpected failure`, error);
        return errorResponse({ status: 500, code: 'internal', message: 'internal error in the status service' });
      }
    },
    { kind: SpanKind.SERVER, resultAttributes: (response) => ({ 'http.response.status_code': response.status }) },
  );
}
