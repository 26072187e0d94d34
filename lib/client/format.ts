/** Display formatting that lib/status does not already offer. Pure, locale-free (same text on server and browser). */
import { formatClock } from '@/lib/status';

/** "2026-11-30 16:00:03Z" from an ISO timestamp (the server's, never the browser clock's). */
export function formatUtc(iso: string): string {
  const ms = Date.parse(iso);
  return Number.isFinite(ms)
    ? new Date(ms)
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, 'Z')
    : iso;
}

/** "16:00:03Z". */
export const formatUtcClock = formatClock;

/** A cursor as grouped digits with thin spaces: 12 345. */
export function formatCursor(cursor: number | null): string {
  if (cursor === null) return '—';
  return String(cursor).replace(/\B(?=(\d{3})+(?!\d))/g, '\u2009');
}
