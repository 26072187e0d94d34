/**
 * `--label`, as every scheduler command takes it: `KEY=VALUE` is a label of
 * the scheduler (repeatable; lib/limits/labels.ts's rules), a value without `=`
 * the instance's display label (at most one; a display label never holds `=`,
 * so the two cannot be confused).
 *
 * Guarantees: pure; answers labels sorted by key, or the first problem as a
 * sentence beginning `--label:`.
 */
import { type Labels, parseLabelArgs } from '../limits/labels';
import { LABEL_PATTERN } from '../lease';

export type LabelFlags = { ok: true; display: string | null; labels: Labels } | { ok: false; message: string };

export function parseLabelFlags(args: readonly string[]): LabelFlags {
  const displays = args.filter((arg) => !arg.includes('='));
  if (displays.length > 1) return { ok: false, message: '--label: one display label (TEXT) at most; scheduler labels are KEY=VALUE' };
  const display = displays[0] ?? null;
  if (display !== null && !LABEL_PATTERN.test(display)) return { ok: false, message: '--label: 1–32 letters, digits, spaces, _ . -' };
  const labels = parseLabelArgs(args.filter((arg) => arg.includes('=')));
  if (!labels.ok) return { ok: false, message: `--label: ${labels.message}` };
  return { ok: true, display, labels: labels.labels };
}
