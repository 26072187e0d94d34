/**
 * Scheduler labels (`team=payments`): the one definition of what a label is,
 * below every layer (no dependency: the runtime, the CLI, the contract and the
 * browser all take it from here), shared by every entry point — the library option, `leaseboard run --label`,
 * the HTTP report, the operator action — and held equal to the database's
 * own check (`leaseboard_labels_ok`, migration scheduler_labels; a test runs
 * both on the same table of cases), so the SQL protocol cannot store what
 * this refuses.
 *
 * The rules are Kubernetes' (k8s.io/apimachinery validation):
 * - key: an optional DNS-subdomain prefix (lower case, ≤ 253 characters) and
 *   `/`, then a name of 1–63 characters `[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?`;
 * - value: empty, or 1–63 characters of the same form;
 * - at most LABELS_MAX labels per scheduler (Leaseboard's bound: a label set
 *   is shown, stored and matched per scheduler on every list read).
 *
 * Guarantees: pure; `checkLabels` never throws, it answers the first problem
 * in a sentence that names the key. Not guaranteed: that labels are free of
 * personal data — they are shown to every viewer (docs/design.md, invariant 10).
 */
export const LABELS_MAX = 32;
export const LABEL_NAME_MAX = 63;
export const LABEL_PREFIX_MAX = 253;
export const LABEL_VALUE_MAX = 63;

/** A key's name part, and a non-empty value: alphanumeric at both ends, `-_.` inside. */
const LABEL_NAME_PATTERN = '[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?';
/** A DNS subdomain (RFC 1123): lower-case labels joined by dots. */
const LABEL_PREFIX_PATTERN = '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*';

const NAME = new RegExp(`^${LABEL_NAME_PATTERN}$`);
const PREFIX = new RegExp(`^${LABEL_PREFIX_PATTERN}$`);

/** A scheduler's labels: key → value. */
export type Labels = Readonly<Record<string, string>>;

/** Why `key` is not a label key, or null when it is one. */
export function labelKeyProblem(key: string): string | null {
  const slash = key.indexOf('/');
  const prefix = slash === -1 ? null : key.slice(0, slash);
  const name = slash === -1 ? key : key.slice(slash + 1);
  const shown = JSON.stringify(key.slice(0, 80));
  if (prefix !== null) {
    if (prefix.length === 0 || prefix.length > LABEL_PREFIX_MAX || !PREFIX.test(prefix)) {
      return `label key ${shown}: the prefix before "/" must be a lower-case DNS subdomain of at most ${LABEL_PREFIX_MAX} characters (e.g. example.com)`;
    }
  }
  if (name.length === 0 || name.length > LABEL_NAME_MAX || !NAME.test(name)) {
    return `label key ${shown}: the name must be 1–${LABEL_NAME_MAX} letters, digits, "-", "_" or ".", beginning and ending with a letter or digit`;
  }
  return null;
}

/** Why `value` is not a label value (of `key`), or null when it is one. */
export function labelValueProblem(key: string, value: string): string | null {
  if (value === '') return null;
  if (value.length > LABEL_VALUE_MAX || !NAME.test(value)) {
    return `label ${JSON.stringify(key.slice(0, 80))}: the value must be empty or 1–${LABEL_VALUE_MAX} letters, digits, "-", "_" or ".", beginning and ending with a letter or digit`;
  }
  return null;
}

export type LabelsCheck = { ok: true; labels: Labels } | { ok: false; message: string };

/** Checks labels from any source; the labels returned are a fresh object sorted by key. */
export function checkLabels(input: unknown): LabelsCheck {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return { ok: false, message: 'labels: an object of key → value strings' };
  const labels = input as Record<string, unknown>;
  const keys = Object.keys(labels);
  if (keys.length > LABELS_MAX) return { ok: false, message: `labels: at most ${LABELS_MAX} per scheduler, got ${keys.length}` };
  for (const key of keys) {
    const value = labels[key];
    if (typeof value !== 'string') return { ok: false, message: `label ${JSON.stringify(key.slice(0, 80))}: the value must be a string ("" for none)` };
    const problem = labelKeyProblem(key) ?? labelValueProblem(key, value);
    if (problem !== null) return { ok: false, message: problem };
  }
  return { ok: true, labels: sortedLabels(labels as Record<string, string>) };
}

/** `KEY=VALUE` arguments (the CLI's `--label`) → labels, checked; a key given twice is refused. */
export function parseLabelArgs(args: readonly string[]): LabelsCheck {
  const labels: Record<string, string> = {};
  for (const arg of args) {
    const eq = arg.indexOf('=');
    if (eq <= 0) return { ok: false, message: `label ${JSON.stringify(arg.slice(0, 80))}: expected KEY=VALUE, e.g. team=payments` };
    const key = arg.slice(0, eq);
    if (Object.hasOwn(labels, key)) return { ok: false, message: `label ${JSON.stringify(key.slice(0, 80))}: given twice` };
    labels[key] = arg.slice(eq + 1);
  }
  return checkLabels(labels);
}

function sortedLabels(labels: Labels): Labels {
  return Object.fromEntries(
    Object.keys(labels)
      .sort()
      .map((key) => [key, labels[key]!]),
  );
}

/** `env=prod,team=payments` (sorted by key; `{}` → ""): how the audit trail and the CLI show a label set. */
export function formatLabels(labels: Labels): string {
  return Object.entries(sortedLabels(labels))
    .map(([key, value]) => `${key}=${value}`)
    .join(',');
}

export function sameLabels(a: Labels, b: Labels): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && b[key] === a[key]);
}
