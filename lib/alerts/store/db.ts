/**
 * What the alert store's readers need of a connection (a pg Pool, a
 * read-only pool, or a client), and how they turn stored times into the
 * alert core's ISO strings.
 *
 * Guarantees: times travel as epoch milliseconds (float8) and come back as
 * ISO-8601 UTC strings with millisecond precision — the precision the
 * evaluator stores them with, so a round trip is exact.
 */
import { toIso } from '../../status/time';

export type Queryable = {
  query: (config: { name?: string; text: string; values?: unknown[] }) => Promise<{ rows: unknown[] }>;
};

/** `(extract(epoch FROM col) * 1000)::float8 AS alias`. */
export const msCol = (column: string, alias: string) => `(extract(epoch FROM ${column}) * 1000)::float8 AS ${alias}`;

export function isoOrNull(ms: number | null): string | null {
  return ms === null ? null : toIso(Math.round(ms));
}
