/**
 * `leaseboard maintenance list | create | cancel`: maintenance windows from a
 * shell or configuration as code, the same writes as the API's
 * (POST/DELETE /api/v1/maintenance-windows) with the same rules, each audited
 * with the person and reason given.
 *
 * Guarantees: a window is checked by the API's own request schema before
 * anything is written (a malformed selector, an end before its start, a span
 * over 30 days: exit 2, nothing changed); a change that the store refuses (too
 * many open windows, an unknown or closed window) is exit 2 with its reason,
 * nothing changed; a change made prints the window as the API answers it (one
 * JSON line). Database: LEASEBOARD_ACTIONS_DATABASE_URL, else DATABASE_URL,
 * else the running demo's operator login.
 */
import type { parseArgs } from 'node:util';
import { createPool } from '../../db/pool';
import { type Actor, cancelWindow, createWindow, type WindowChangeResult, windowRefusal, windowSpecOf } from '../actions/maintenance';
import { readWindowList } from '../alerts/store/maintenance';
import { MaintenanceCancelRequestSchema, MaintenanceWindowRequestSchema } from '../api/schemas';
import type { MaintenanceWindowView } from '../api/types';
import { DurationError, parseDuration } from '../config/duration';
import { actionsDatabaseUrl } from './running-database';
import { subcommand } from './subcommand';

const USAGE = `usage: leaseboard maintenance list [--json]
       leaseboard maintenance create (--selector 'team=payments' | --scheduler NAME…) [--from TIME|now] (--until TIME | --for 2h) [--weekly] --by WHO --reason WHY
       leaseboard maintenance cancel ID --by WHO --reason WHY
While a window covers a scheduler it reads "in maintenance" beside its health, and its alerts are not delivered;
when the window ends (or is cancelled) they are again, without a restart. TIME: ISO-8601 with a zone
(2026-12-07T22:00:00Z). A window spans at most 30 days (under 7 when --weekly). Audited, with WHO and WHY.
Database: LEASEBOARD_ACTIONS_DATABASE_URL, else DATABASE_URL, else the running demo's.
Exit codes: 0 done; 2 bad input or a change refused (nothing written).
`;

function fail(message: string): never {
  process.stderr.write(`maintenance: ${message}\n`);
  process.exit(2);
}

const OPTIONS = {
  json: { type: 'boolean' },
  selector: { type: 'string' },
  scheduler: { type: 'string', multiple: true },
  from: { type: 'string' },
  until: { type: 'string' },
  for: { type: 'string' },
  weekly: { type: 'boolean' },
  by: { type: 'string' },
  reason: { type: 'string' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

function actorOf(values: Values): Actor {
  const by = values.by?.trim() ?? '';
  if (by.length === 0) fail('--by WHO is required (the audit names who changed the window)');
  const reason = MaintenanceCancelRequestSchema.safeParse({ reason: values.reason ?? '' });
  if (!reason.success) fail(reason.error.issues.map((issue) => issue.message).join('; '));
  return { by, reason: reason.data.reason, identifiedBy: 'cli' };
}

/** The window asked for, as the API's request: its schema says what is wrong, in the API's words. */
function requestOf(values: Values, nowMs: number) {
  const fromNow = values.from === undefined || values.from === 'now';
  const startsAtMs = fromNow ? nowMs : Date.parse(values.from!);
  if (Number.isNaN(startsAtMs)) fail(`--from: an ISO-8601 time with a zone (e.g. 2026-12-07T22:00:00Z) or now, got ${JSON.stringify(values.from)}`);
  if ((values.until === undefined) === (values.for === undefined)) fail('say exactly one of --until TIME or --for DURATION');
  let endsAt = values.until;
  if (values.for !== undefined) {
    try {
      endsAt = new Date(startsAtMs + parseDuration(values.for)).toISOString();
    } catch (error) {
      if (error instanceof DurationError) fail(`--for: ${error.message}`);
      throw error;
    }
  }
  const parsed = MaintenanceWindowRequestSchema.safeParse({
    ...(values.selector === undefined ? {} : { selector: values.selector }),
    ...(values.scheduler === undefined ? {} : { schedulers: values.scheduler }),
    startsAt: fromNow ? new Date(startsAtMs).toISOString() : values.from,
    endsAt,
    weekly: values.weekly ?? false,
    reason: values.reason ?? '',
  });
  if (!parsed.success) fail(parsed.error.issues.map((issue) => `${issue.path.join('.') || 'window'}: ${issue.message}`).join('; '));
  return parsed.data;
}

function printed(result: WindowChangeResult): void {
  if (result.kind !== 'changed') fail(windowRefusal(result));
  console.log(JSON.stringify({ action: result.action, window: result.window }));
}

/** One line a person reads: id, where it stands, what it covers, when, who and why. */
function line(w: MaintenanceWindowView): string {
  const covers = w.selector ?? (w.schedulers ?? []).join(',');
  const state = w.state === 'open' ? `open until ${w.openUntil}` : w.state === 'scheduled' ? `opens ${w.nextOpensAt}` : w.state;
  return `#${w.id}  ${state}  ${covers}  ${w.startsAt} → ${w.endsAt}${w.weekly ? ' weekly' : ''}  by ${w.by}: ${w.reason}`;
}

export async function run(argv: string[]): Promise<void> {
  const { action, values, operand } = subcommand({
    name: 'maintenance',
    argv,
    options: OPTIONS,
    actions: ['list', 'create', 'cancel'],
    operand: { action: 'cancel', pattern: /^[1-9][0-9]{0,15}$/, message: 'cancel takes one window number (leaseboard maintenance list)' },
    usage: USAGE,
    fail,
  });
  // Checked before the database is reached: bad input never waits on a connection.
  const actor = action === 'list' ? null : actorOf(values);
  const request = action === 'create' ? requestOf(values, Date.now()) : null;

  const pool = createPool(actionsDatabaseUrl(fail), { applicationName: 'leaseboard-maintenance' });
  try {
    if (action === 'list') {
      const { windows } = await readWindowList(pool);
      if (values.json) console.log(JSON.stringify({ windows }));
      else console.log(windows.length === 0 ? 'no maintenance windows kept' : windows.map(line).join('\n'));
    } else if (request !== null) {
      printed(await createWindow(pool, windowSpecOf(request), actor!));
    } else {
      printed(await cancelWindow(pool, Number(operand), actor!));
    }
  } finally {
    await pool.end();
  }
}
