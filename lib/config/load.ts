/**
 * The effective configuration from its sources, in order of precedence:
 * defaults < file (`--config FILE`, YAML or JSON) < environment < flags.
 *
 * Guarantees: pure (reads only its arguments); every problem is collected and
 * thrown together as one ConfigError, each naming its setting: a value out of
 * range or of the wrong form, a file key that is not a setting, a
 * `LEASEBOARD_*` variable that is not one (a typo: the nearest real name is
 * suggested, and a renamed `…_MS` variable is pointed at its new name).
 * Nothing is clamped. Non-guarantees: relations between settings are checked
 * by their readers (lib/alerts/config.ts, lib/retention, lib/server/env.ts).
 */
import { isReserved, RENAMED } from './reserved';
import { SettingValueError } from './setting';
import { BY_ENV, BY_FILE_KEY, type SettingKey, SETTINGS, type Settings } from './settings';
import { nearest } from './suggest';

export type Env = Readonly<Record<string, string | undefined>>;
export type Source = 'default' | 'file' | 'environment' | 'flag';

export interface ConfigProblem {
  /** The variable, file key or flag at fault. */
  readonly name: string;
  readonly problem: string;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly problems: readonly ConfigProblem[]) {
    const lines = problems.map((p) => `${p.name}: ${p.problem}`);
    super(lines.length === 1 ? `config: ${lines[0]}` : `config: ${lines.length} problems:\n  ${lines.join('\n  ')}`);
  }
  /** The first setting at fault (what older error classes called `variable`). */
  get variable(): string {
    return this.problems[0]?.name ?? '?';
  }
}

/** A parsed configuration file: its path (for messages) and its top-level mapping. */
export interface ConfigFile {
  readonly path: string;
  readonly values: Readonly<Record<string, unknown>>;
}

export interface ConfigSources {
  env: Env;
  file?: ConfigFile | null;
  /** Flag values, by setting (e.g. `{ port: '8080' }` from `--port 8080`). */
  flags?: Partial<Record<SettingKey, string>>;
}

export interface ResolvedConfig {
  readonly settings: Settings;
  readonly sources: Readonly<Record<SettingKey, Source>>;
  /** The configuration file read, if any. */
  readonly file: string | null;
}

const KEYS = Object.keys(SETTINGS) as SettingKey[];

/** A file value as the text a variable would carry; null for a value no setting can take. */
function fileText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((item) => typeof item === 'string' || typeof item === 'number')) return value.join(',');
  return null;
}

/** One setting's text → value, or the problem naming it (`name`: the variable, flag or file key it came from). */
function parseOne<K extends SettingKey>(key: K, raw: string, name: string): { value: Settings[K] } | { problem: ConfigProblem } {
  try {
    return { value: SETTINGS[key].parse(raw.trim()) as Settings[K] };
  } catch (error) {
    if (error instanceof SettingValueError) return { problem: { name, problem: error.message } };
    throw error;
  }
}

function unknownVariables(env: Env): ConfigProblem[] {
  return Object.keys(env)
    .filter((variable) => variable.startsWith('LEASEBOARD_') && !BY_ENV.has(variable) && !isReserved(variable))
    .map((variable) => {
      const renamed = RENAMED.get(variable);
      if (renamed) return { name: variable, problem: `renamed: set ${renamed} instead, a duration with its unit (e.g. 15s)` };
      const guess = nearest(variable, [...BY_ENV.keys()]);
      return { name: variable, problem: `not a setting${guess ? ` (did you mean ${guess}?)` : ''}; see docs/configuration.md` };
    });
}

function unknownFileKeys(file: ConfigFile): ConfigProblem[] {
  return Object.keys(file.values)
    .filter((key) => !BY_FILE_KEY.has(key))
    .map((key) => {
      const asVariable = BY_ENV.get(key);
      const guess = asVariable ? SETTINGS[asVariable].key : nearest(key, [...BY_FILE_KEY.keys()]);
      return { name: `${file.path}: ${key}`, problem: `not a setting${guess ? ` (did you mean ${guess}?)` : ''}; see docs/configuration.md` };
    });
}

/** The effective configuration; throws ConfigError listing every problem. */
export function resolveConfig(sources: ConfigSources): ResolvedConfig {
  const problems: ConfigProblem[] = [...unknownVariables(sources.env), ...(sources.file ? unknownFileKeys(sources.file) : [])];
  const settings: Record<string, unknown> = {};
  const origin: Record<string, Source> = {};
  for (const key of KEYS) {
    const spec = SETTINGS[key];
    const candidates: [Source, string, unknown][] = [
      ['flag', spec.flag ?? key, sources.flags?.[key]],
      ['environment', spec.env, sources.env[spec.env]],
      ['file', `${sources.file?.path}: ${spec.key}`, sources.file?.values[spec.key]],
    ];
    // The first source (by precedence) that has a value decides; an empty one means unset, unless empty is a value of this setting.
    const found = candidates.find(([, , value]) => value !== undefined && value !== null && (value !== '' || spec.keepsEmpty));
    if (found === undefined) {
      settings[key] = spec.default;
      origin[key] = 'default';
      continue;
    }
    const [source, name, value] = found;
    const raw = fileText(value);
    if (raw === null) {
      problems.push({ name, problem: 'must be a single value (text, number or list), not a mapping' });
      continue;
    }
    const parsed = parseOne(key, raw, name);
    if ('problem' in parsed) problems.push(parsed.problem);
    else {
      settings[key] = parsed.value;
      origin[key] = source;
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze({
    settings: Object.freeze(settings) as Settings,
    sources: Object.freeze(origin) as Record<SettingKey, Source>,
    file: sources.file?.path ?? null,
  });
}

/**
 * One setting from an environment-like record (its default when unset), for the modules that
 * build their own configuration from a few settings; throws ConfigError naming the variable.
 */
export function settingFrom<K extends SettingKey>(env: Env, key: K): Settings[K] {
  const spec = SETTINGS[key];
  const raw = env[spec.env];
  if (raw === undefined || (raw.trim() === '' && !spec.keepsEmpty)) return spec.default as Settings[K];
  const parsed = parseOne(key, raw, spec.env);
  if ('problem' in parsed) throw new ConfigError([parsed.problem]);
  return parsed.value;
}

/**
 * `settingFrom` for one environment, its ConfigError turned into the caller's own error class (which
 * its callers already catch), still naming the variable and the problem.
 */
export function settingsOf(env: Env, toError: (variable: string, problem: string) => Error): <K extends SettingKey>(key: K) => Settings[K] {
  return (key) => {
    try {
      return settingFrom(env, key);
    } catch (error) {
      if (error instanceof ConfigError) throw toError(error.variable, error.problems[0]?.problem ?? 'invalid');
      throw error;
    }
  };
}
