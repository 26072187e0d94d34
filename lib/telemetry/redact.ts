/**
 * What a span may carry out of the process: the same privacy rules as the
 * metrics (docs/design.md, "Privacy"). Scheduler names and routes may leave;
 * instance tokens, holder labels, host names, database users, connection
 * strings, query values and error messages never do.
 *
 * Guarantees: an allowlist, so an attribute a library adds tomorrow is
 * dropped until someone decides it is harmless. Pure.
 */
import type { Attributes } from '@opentelemetry/api';

/** Exact keys that may leave the process. */
const ALLOWED_KEYS = new Set([
  // Ours (./span.ts callers).
  'leaseboard.scheduler',
  'leaseboard.route',
  'leaseboard.job',
  'leaseboard.batch_size',
  'leaseboard.outcome',
  'leaseboard.statements',
  'leaseboard.schedulers',
  // HTTP, without URLs or query strings (a query may carry `next=` or an `at=` someone typed).
  'http.route',
  'http.request.method',
  'http.response.status_code',
  'http.method',
  'http.status_code',
  'next.route',
  'next.span_name',
  'next.span_type',
  // SQL: the statement text has placeholders only (enhancedDatabaseReporting stays off).
  'db.system',
  'db.system.name',
  'db.statement',
  'db.query.text',
  'db.operation',
  'db.operation.name',
  // A recorded throw: its type, never its message (a message can quote a row).
  'exception.type',
]);

export function redactAttributes(attributes: Attributes): Attributes {
  const kept: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) if (ALLOWED_KEYS.has(key)) kept[key] = value;
  return kept;
}
