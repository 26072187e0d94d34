/**
 * Validation of a scheduler name as a client sends it (a path segment, a
 * query value, a body field), shared by the status reads and the operator
 * actions (docs/design.md, invariant 11).
 *
 * Guarantees: total — any value yields the name or a 400 `invalid_name`
 * naming what is wrong; the name is only ever a bound parameter afterwards,
 * so nothing else about it needs checking; nothing here throws.
 */
import type { HttpError } from './respond';

/** Longest scheduler name accepted. */
export const NAME_MAX = 200;

const CONTROL = /[\u0000-\u001f\u007f]/;

const invalidName = (message: string): { ok: false; error: HttpError } => ({ ok: false, error: { status: 400, code: 'invalid_name', message } });

export function checkName(name: unknown): { ok: true; value: string } | { ok: false; error: HttpError } {
  if (typeof name !== 'string' || name.length === 0) return invalidName('scheduler name is empty');
  if (name.length > NAME_MAX) return invalidName(`scheduler name longer than ${NAME_MAX} characters`);
  if (CONTROL.test(name)) return invalidName('scheduler name contains control characters');
  return { ok: true, value: name };
}
