/**
 * Labels in the v1 contract: the request shape (zod) of lib/limits/labels.ts's
 * rule — the one rule, which the runtime, the CLI and the database apply too.
 */
import { z } from 'zod';
import { checkLabels, LABEL_NAME_MAX, LABEL_PREFIX_MAX, LABEL_VALUE_MAX, LABELS_MAX } from '../limits/labels';

/** Labels as sent (a JSON object of strings), checked whole by the one rule. */
export const LabelsSchema = z
  .record(z.string(), z.string({ error: 'labels: every value is a string ("" for none)' }), { error: 'labels: an object of key → value strings' })
  .superRefine((labels, ctx) => {
    const checked = checkLabels(labels);
    if (!checked.ok) ctx.addIssue({ code: 'custom', message: checked.message });
  })
  .describe(
    `Kubernetes-style labels: at most ${LABELS_MAX}; key [prefix/]name (name ≤ ${LABEL_NAME_MAX}, prefix a DNS subdomain ≤ ${LABEL_PREFIX_MAX}); value ≤ ${LABEL_VALUE_MAX}, may be empty`,
  );
