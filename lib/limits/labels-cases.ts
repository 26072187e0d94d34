/**
 * Label keys and values, each with whether it is one: the table both forms of
 * the rule answer — ./labels.ts here (unit test) and the database's
 * `leaseboard_labels_ok` (integration test) — so the two cannot drift apart.
 */
import { LABEL_NAME_MAX, LABEL_PREFIX_MAX, LABEL_VALUE_MAX } from './labels';

export const KEY_CASES: readonly { key: string; ok: boolean }[] = [
  { key: 'team', ok: true },
  { key: 'a', ok: true },
  { key: 'app.kubernetes.io/name', ok: true },
  { key: 'example.com/Team_1.x-y', ok: true },
  { key: 'x'.repeat(LABEL_NAME_MAX), ok: true },
  { key: `${'a'.repeat(LABEL_PREFIX_MAX)}/n`, ok: true },
  { key: '', ok: false },
  { key: 'x'.repeat(LABEL_NAME_MAX + 1), ok: false },
  { key: `${'a'.repeat(LABEL_PREFIX_MAX + 1)}/n`, ok: false },
  { key: '-team', ok: false },
  { key: 'team-', ok: false },
  { key: 'te am', ok: false },
  { key: 'team=x', ok: false },
  { key: '/team', ok: false },
  { key: 'Example.com/team', ok: false },
  { key: 'example.com/', ok: false },
  { key: 'a/b/c', ok: false },
  { key: 'équipe', ok: false },
  { key: 'team\n', ok: false },
];

export const VALUE_CASES: readonly { value: string; ok: boolean }[] = [
  { value: '', ok: true },
  { value: 'payments', ok: true },
  { value: 'Prod_2.eu-west', ok: true },
  { value: 'v'.repeat(LABEL_VALUE_MAX), ok: true },
  { value: 'v'.repeat(LABEL_VALUE_MAX + 1), ok: false },
  { value: '-x', ok: false },
  { value: 'x.', ok: false },
  { value: 'a/b', ok: false },
  { value: 'a b', ok: false },
  { value: 'a,b', ok: false },
];
