/**
 * Leaseboard's configuration: one schema (./settings.ts), one duration parser
 * (./duration.ts), one loader (./load.ts). Sources, in order of precedence:
 * defaults < file (`--config FILE`) < environment < flags.
 *
 * Guarantees: `config()` resolves the process environment once, refusing a
 * typo'd `LEASEBOARD_*` variable or a bad value (ConfigError naming it), and
 * returns the same frozen object afterwards; `checkedEnv()` is that same
 * environment, for the modules that build their own configuration from it
 * (they read it through `settingFrom`, so the schema stays the one home of
 * every name, unit, default and range). This module is the one reader of
 * `process.env` for settings (the demo's archive variables aside, which leave
 * lib with the demo; ./reserved.ts).
 * Non-guarantees: later changes to `process.env` are not seen.
 */
import { readConfigFile } from './file';
import { type Env, resolveConfig, type ResolvedConfig, type Source } from './load';
import { type SettingKey, SETTINGS, showValue } from './settings';

export { DurationError, formatDuration, parseDuration } from './duration';
export { ConfigError, type Env, resolveConfig, type ResolvedConfig, settingFrom, settingsOf } from './load';
export { readConfigFile } from './file';
export { SETTINGS, type SettingKey, type Settings } from './settings';
let cached: ResolvedConfig | null = null;

/** The process's configuration (environment and defaults), resolved on first use. */
export function config(): ResolvedConfig {
  cached ??= resolveConfig({ env: process.env });
  return cached;
}

/** The process environment, once config() has checked it (throws ConfigError otherwise). */
export function checkedEnv(): Env {
  config();
  return process.env;
}

/** File, environment and flags: what a command that takes `--config FILE` starts from. */
export function loadConfig(options: { configFile?: string | null; env?: Env; flags?: Partial<Record<SettingKey, string>> }): ResolvedConfig {
  return resolveConfig({
    env: options.env ?? process.env,
    file: options.configFile ? readConfigFile(options.configFile) : null,
    flags: options.flags ?? {},
  });
}

/**
 * Hands values from the file and flags on as environment variables, so that what this process
 * starts or loads apart from it (the Next.js bundle, child processes) resolves the same
 * configuration; then forgets the cached one. Called once, at start.
 */
export function exportToEnvironment(resolved: ResolvedConfig, env: Record<string, string | undefined> = process.env): void {
  for (const key of Object.keys(SETTINGS) as SettingKey[]) {
    const source = resolved.sources[key];
    if (source !== 'file' && source !== 'flag') continue;
    env[SETTINGS[key].env] = showValue(key, resolved.settings[key]);
  }
  cached = null;
}

export interface ShownSetting {
  key: string;
  env: string;
  flag: string | null;
  value: string;
  source: Source;
  secret: boolean;
}

/** A secret as it may be printed: a URL keeps all but its password, anything else shows only that it is set. */
function redact(value: string): string {
  if (value === '') return '';
  try {
    const url = new URL(value);
    if (url.password) {
      url.password = '***';
      return url.toString();
    }
    if (url.protocol.startsWith('postgres')) return value;
  } catch {
    // not a URL
  }
  return '*** (set)';
}

/** Every setting's effective value (secrets redacted) and where it came from. */
export function showConfig(resolved: ResolvedConfig): ShownSetting[] {
  return (Object.keys(SETTINGS) as SettingKey[]).map((key) => {
    const spec = SETTINGS[key];
    const shown = showValue(key, resolved.settings[key]);
    return { key: spec.key, env: spec.env, flag: spec.flag, value: spec.secret ? redact(shown) : shown, source: resolved.sources[key], secret: spec.secret };
  });
}
export { urlPasswordRefusal } from './command-line';
