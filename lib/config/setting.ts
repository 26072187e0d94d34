/**
 * One setting's definition: its names, type, unit, default, range, one-line
 * description and whether it is a secret — and the parser that turns its
 * text (from a flag, the environment or the file) into a typed value.
 *
 * Guarantees: a parser refuses, never clamps: a value out of range throws
 * SettingValueError saying the range; an empty text is the same as unset
 * (the default), as `KEY=` in a compose file means.
 */
import { z } from 'zod';
import { formatDuration, parseDuration } from './duration';

type SettingType = 'duration' | 'integer' | 'text' | 'choice' | 'switch';

/** What the documentation groups settings by. */
export type SettingGroup = 'database' | 'server' | 'identity' | 'alerts' | 'retention' | 'tools';

export interface Setting<T> {
  /** The environment variable (also the name in messages). */
  readonly env: string;
  /** The key in the configuration file: the variable's name without `LEASEBOARD_`, in lower case. */
  readonly key: string;
  /** The command-line flag that sets it too, where there is one (`--port`). */
  readonly flag: string | null;
  readonly type: SettingType;
  readonly group: SettingGroup;
  /** What the number counts (`connections`, `reports`); durations carry their unit in the value. */
  readonly unit: string | null;
  readonly default: T;
  /** The accepted range, as written in the docs (`100ms–30s`), or null. */
  readonly range: string | null;
  /** The range's ends for numbers and durations (ms), else null. */
  readonly min: number | null;
  readonly max: number | null;
  readonly description: string;
  /** Redacted wherever the configuration is printed. */
  readonly secret: boolean;
  /** An empty text is a value of its own (e.g. "no role"), not the same as unset. */
  readonly keepsEmpty: boolean;
  /** The text → value step; throws SettingValueError (the caller names the setting). */
  readonly parse: (text: string) => T;
  /** The value as written in the docs and `leaseboard config` (before redaction). */
  show(value: T): string;
}

export class SettingValueError extends Error {
  override readonly name = 'SettingValueError';
}

interface Common {
  env: string;
  group: SettingGroup;
  description: string;
  flag?: string;
}

const fileKey = (env: string) => env.replace(/^LEASEBOARD_/, '').toLowerCase();

type Own<T> = Omit<Setting<T>, 'env' | 'key' | 'flag' | 'group' | 'description' | 'keepsEmpty' | 'min' | 'max'> & {
  keepsEmpty?: boolean;
  min?: number;
  max?: number;
};

function setting<T>(common: Common, rest: Own<T>): Setting<T> {
  return Object.freeze({
    keepsEmpty: false,
    min: null,
    max: null,
    ...rest,
    env: common.env,
    key: fileKey(common.env),
    flag: common.flag ?? null,
    group: common.group,
    description: common.description,
  });
}

/** A duration with its unit (`2s`); `min`/`max` are durations too. */
/** A number's setting: its range's ends are known. */
export type Ranged = Setting<number> & { readonly min: number; readonly max: number };

const ranged = (common: Common, rest: Own<number> & { min: number; max: number }) => setting(common, rest) as Ranged;

export function duration(common: Common & { default: string; min: string; max: string }): Ranged {
  const [fallback, min, max] = [common.default, common.min, common.max].map(parseDuration) as [number, number, number];
  const range = `${formatDuration(min)}–${formatDuration(max)}`;
  return ranged(common, {
    type: 'duration',
    unit: null,
    default: fallback,
    range,
    min,
    max,
    secret: false,
    parse: (text) => {
      let ms: number;
      try {
        ms = parseDuration(text);
      } catch (error) {
        throw new SettingValueError((error as Error).message);
      }
      if (ms < min || ms > max) throw new SettingValueError(`${formatDuration(ms)} is outside ${range}`);
      return ms;
    },
    show: formatDuration,
  });
}

/** A whole number of `unit`s in [min, max]. */
export function integer(common: Common & { default: number; min: number; max: number; unit: string }): Ranged {
  const range = `${common.min}–${common.max}`;
  return ranged(common, {
    type: 'integer',
    unit: common.unit,
    default: common.default,
    range,
    min: common.min,
    max: common.max,
    secret: false,
    parse: (text) => {
      if (!/^\d{1,9}$/.test(text))
        throw new SettingValueError(`expected a whole number of ${common.unit} (${range}), got ${JSON.stringify(text.slice(0, 40))}`);
      const n = Number(text);
      if (n < common.min || n > common.max) throw new SettingValueError(`${n} is outside ${range}`);
      return n;
    },
    show: String,
  });
}

/**
 * Free text (a URL, a list, a name), checked here by `pattern` when given; structured values (CIDR lists,
 * email lists, URLs) get their structural check in the module that reads them, naming the same variable.
 */
export function text(
  common: Common & { default?: string; pattern?: { regex: RegExp; hint: string }; secret?: boolean; minLength?: number; keepsEmpty?: boolean },
): Setting<string | null> {
  const schema = z
    .string()
    .min(common.minLength ?? 0, `must be at least ${common.minLength} characters`)
    .regex(common.pattern?.regex ?? /[^]*/, common.pattern?.hint ?? '');
  return setting(common, {
    type: 'text',
    unit: null,
    default: common.default ?? null,
    range: null,
    secret: common.secret ?? false,
    keepsEmpty: common.keepsEmpty ?? false,
    parse: (raw) => {
      const parsed = schema.safeParse(raw);
      if (!parsed.success) throw new SettingValueError(parsed.error.issues[0]?.message ?? 'invalid');
      return parsed.data;
    },
    show: (value) => value ?? '',
  });
}

/** One of a few words. */
export function choice<const C extends string>(common: Common & { default: C; choices: readonly C[] }): Setting<C> {
  return setting(common, {
    type: 'choice',
    unit: null,
    default: common.default,
    range: common.choices.join(' | '),
    secret: false,
    parse: (raw) => {
      if (!(common.choices as readonly string[]).includes(raw))
        throw new SettingValueError(`one of ${common.choices.join(', ')}, got ${JSON.stringify(raw.slice(0, 40))}`);
      return raw as C;
    },
    show: String,
  });
}

/** On or off: `1`/`true` or `0`/`false`. */
export function onOff(common: Common & { default: boolean }): Setting<boolean> {
  return setting(common, {
    type: 'switch',
    unit: null,
    default: common.default,
    range: '1 | 0 (true | false)',
    secret: false,
    parse: (raw) => {
      if (raw === '1' || raw === 'true') return true;
      if (raw === '0' || raw === 'false') return false;
      throw new SettingValueError(`expected 1 or 0 (true or false), got ${JSON.stringify(raw.slice(0, 40))}`);
    },
    show: (value) => (value ? '1' : '0'),
  });
}
