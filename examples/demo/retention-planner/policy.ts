/**
 * Pure retention policy: which documents would expire at `now`. No I/O, no
 * clock: `now` is the database time of the read that fetched the documents.
 */
import { RETENTION_POLICIES, type RetentionClass } from './documents';

export interface DocumentRow {
  id: number;
  retentionClass: string;
  createdAt: Date;
}

export interface PlanItem {
  documentId: number;
  policy: RetentionClass;
}

const DAY_MS = 86_400_000;
const KEEP_MS: Record<RetentionClass, number | null> = Object.fromEntries(
  Object.entries(RETENTION_POLICIES).map(([name, keep]) => [name, keep === null ? null : Number.parseInt(keep, 10) * DAY_MS]),
) as Record<RetentionClass, number | null>;

function isRetentionClass(value: string): value is RetentionClass {
  return Object.hasOwn(RETENTION_POLICIES, value);
}

/** Documents older than their class's retention; unknown classes are kept (never planned). */
export function planExpiries(documents: readonly DocumentRow[], now: Date): PlanItem[] {
  const items: PlanItem[] = [];
  for (const document of documents) {
    if (!isRetentionClass(document.retentionClass)) continue;
    const keep = KEEP_MS[document.retentionClass];
    if (keep !== null && now.getTime() - document.createdAt.getTime() > keep) {
      items.push({ documentId: document.id, policy: document.retentionClass });
    }
  }
  return items;
}
