/**
 * The configuration file (`--config FILE`): what a team keeps in git.
 * YAML, or JSON (a `.json` file; JSON is YAML too, but its own parser gives
 * the better message). Keys are the settings' file keys (docs/configuration.md):
 * the variable's name without `LEASEBOARD_`, in lower case — `read_timeout: 2s`.
 *
 * Guarantees: a file that cannot be read, does not parse, or is not one
 * mapping of keys to values throws ConfigError naming the file; keys and
 * values are checked by resolveConfig (./load.ts).
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { type ConfigFile, ConfigError } from './load';

export function readConfigFile(path: string): ConfigFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError([
      { name: path, problem: `cannot read the configuration file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` },
    ]);
  }
  let values: unknown;
  try {
    values = path.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new ConfigError([{ name: path, problem: `not valid ${path.endsWith('.json') ? 'JSON' : 'YAML'}: ${(error as Error).message.split('\n')[0]}` }]);
  }
  values ??= {};
  if (typeof values !== 'object' || Array.isArray(values)) throw new ConfigError([{ name: path, problem: 'must be a mapping of setting keys to values' }]);
  return Object.freeze({ path, values: values as Record<string, unknown> });
}
