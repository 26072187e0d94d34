/**
 * Which schedulers of a page read "in maintenance": the open windows of the
 * maintenance answer (GET /api/v1/maintenance-windows), matched by the same
 * rule the alert evaluator applies (lib/limits/maintenance.ts).
 *
 * Guarantees: pure; a window is open at `nowMs` (the list's observation, the
 * database's clock) by its span, not by the answer's `state`, so a page never
 * says "in maintenance" of a window its own instant is outside. A mark sits
 * beside a health and never changes it.
 */
import type { MaintenanceListResponse } from '@/lib/api/types';
import type { Labels } from '@/lib/limits/labels';
import { coveringWindow, openWindows, type MaintenanceWindow, type OpenWindow } from '@/lib/limits/maintenance';

export interface MaintenanceMark {
  window: number;
  reason: string;
  /** When this opening closes, epoch ms. */
  untilMs: number;
}

/** The windows open at `nowMs`; none while the answer is absent (loading, or refused). */
export function openMaintenance(answer: MaintenanceListResponse | undefined, nowMs: number): OpenWindow[] {
  if (answer === undefined || !Number.isFinite(nowMs)) return [];
  const kept: MaintenanceWindow[] = answer.windows
    .filter((w) => w.cancelledAt === null)
    .map((w) => ({
      id: w.id,
      selector: w.selector,
      schedulers: w.schedulers,
      startsAtMs: Date.parse(w.startsAt),
      endsAtMs: Date.parse(w.endsAt),
      weekly: w.weekly,
      reason: w.reason,
      by: w.by,
    }));
  return openWindows(kept, nowMs);
}

/** The mark of one scheduler, or null when no open window covers it. */
export function maintenanceMark(open: readonly OpenWindow[], name: string, labels: Labels): MaintenanceMark | null {
  if (open.length === 0) return null;
  const covering = coveringWindow(open, name, labels);
  return covering === null ? null : { window: covering.window.id, reason: covering.window.reason, untilMs: covering.toMs };
}
