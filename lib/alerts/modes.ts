/**
 * Rollout modes: which mode is in force for a rule, or for a rule on one
 * scheduler.
 *
 * Guarantees: pure; resolution order is the per-scheduler override, then the
 * rule's mode, then the default `shadow` (a new rule is evaluated and shown,
 * never delivered, until an operator turns it on). Service rules
 * (`StatusStoreUnreadable`, `Watchdog`) have no per-scheduler override.
 * Non-guarantees: modes are operator intent — who, why, when and the audit
 * trail are stored by the caller; nothing here changes a mode.
 */
import type { AlertMode, AlertName, IsoTime } from './types';

export const DEFAULT_MODE: AlertMode = 'shadow';

export const ALERT_MODES: readonly AlertMode[] = Object.freeze(['off', 'shadow', 'on'] as const);

/** An operator's choice, as stored. */
export interface ModeSetting {
  mode: AlertMode;
  by: string;
  reason: string;
  at: IsoTime;
}

export interface ModeTable {
  rules: Readonly<Partial<Record<AlertName, ModeSetting>>>;
  /** rule → scheduler → override. */
  overrides: ReadonlyMap<AlertName, ReadonlyMap<string, ModeSetting>>;
}

export const NO_MODES: ModeTable = Object.freeze({ rules: Object.freeze({}), overrides: new Map() });

export type ResolvedMode = { mode: AlertMode; source: 'override' | 'rule'; setting: ModeSetting } | { mode: AlertMode; source: 'default'; setting: null };

const DEFAULT_RESOLVED: ResolvedMode = Object.freeze({ mode: DEFAULT_MODE, source: 'default', setting: null });

/** The mode in force for `rule` (on `scheduler`, when the rule judges schedulers). */
export function resolveMode(table: ModeTable, rule: AlertName, scheduler: string | null): ResolvedMode {
  if (scheduler !== null) {
    const override = table.overrides.get(rule)?.get(scheduler);
    if (override) return { mode: override.mode, source: 'override', setting: override };
  }
  const setting = table.rules[rule];
  return setting ? { mode: setting.mode, source: 'rule', setting } : DEFAULT_RESOLVED;
}

/** Builds a table from stored rows (e.g. the current-mode table): `scheduler` null = the rule's own mode. */
export function modeTable(rows: Iterable<{ rule: AlertName; scheduler: string | null } & ModeSetting>): ModeTable {
  const rules: Partial<Record<AlertName, ModeSetting>> = {};
  const overrides = new Map<AlertName, Map<string, ModeSetting>>();
  for (const { rule, scheduler, mode, by, reason, at } of rows) {
    const setting = { mode, by, reason, at };
    if (scheduler === null) {
      rules[rule] = setting;
    } else {
      let perRule = overrides.get(rule);
      if (!perRule) overrides.set(rule, (perRule = new Map()));
      perRule.set(scheduler, setting);
    }
  }
  return { rules, overrides };
}
