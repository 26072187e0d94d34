/**
 * A route's JSON body, bounded (./body.ts) and checked against its zod schema,
 * and the error answer every write route shares. Used by the operator actions
 * (lib/actions) and the report ingest (lib/ingest).
 *
 * Guarantees: at most the route's limit is read (413 past it, before a byte
 * when Content-Length says so; 408 for a body that does not arrive in time);
 * anything but a JSON body of the schema's shape is a 400
 * `{ error: { code, message } }` naming the field.
 */
import type { z } from 'zod';
import { type BodyLimit, readRequestJson } from './body';
import { json } from './respond';

export const fail = (status: number, code: string, message: string, headers: Record<string, string> = {}) =>
  json({ error: { code, message } }, status, headers);

export type BodyOutcome<T> = { ok: true; value: T } | { ok: false; response: Response };

/** `limit.deadlineMs`: how long the body may take to arrive (default ./body.ts DEFAULT_BODY_DEADLINE_MS). */
export async function readBody<S extends z.ZodType>(request: Request, schema: S, limit: BodyLimit): Promise<BodyOutcome<z.infer<S>>> {
  if (!(request.headers.get('content-type') ?? '').toLowerCase().startsWith('application/json')) {
    return { ok: false, response: fail(400, 'invalid_body', 'send a JSON body (Content-Type: application/json)') };
  }
  const raw = await readRequestJson(request, limit);
  if (!raw.ok) return { ok: false, response: fail(raw.refusal.status, raw.refusal.code, raw.refusal.message) };
  const parsed = schema.safeParse(raw.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const message = issue ? (issue.message.includes(':') ? issue.message : `${issue.path.join('.') || 'body'}: ${issue.message}`) : 'invalid body';
    return { ok: false, response: fail(400, 'invalid_body', message) };
  }
  return { ok: true, value: parsed.data };
}
