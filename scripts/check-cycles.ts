/**
 * `npm run lint:cycles [-- PATH …]`: no import cycles among the project's
 * modules (type-only imports included: a cycle of types is still a layer
 * that reaches back). madge builds the graph once, with the tsconfig's `@/`
 * paths, in seconds where ESLint's import/no-cycle took most of a minute.
 *
 * Guarantees: every `.ts`/`.tsx` module under the paths is read (default:
 * every source folder and the root configs; scripts/lint-fixtures, which
 * holds deliberate cycles for scripts/lint-rules.lint.test.ts, left out);
 * an import of the project's own code that does not resolve fails the check
 * instead of dropping an edge; `@/` resolves from the repository root
 * whatever the working directory. Prints each cycle and exits 1 when there
 * is one; exits 0 otherwise. Not covered: `.mjs`/`.mts` files (a handful of
 * configs that import no project module).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import madge from 'madge';

const ROOT = path.resolve(__dirname, '..');
const SOURCE_PATHS = ['app', 'components', 'lib', 'db', 'e2e', 'examples', 'scripts', 'playwright.config.ts', 'drizzle.config.ts'];
const FIXTURES = 'lint-fixtures';

/** Every source path, scripts/ entry by entry without its fixtures: madge reads every file it is given, excluded or not. */
export function defaultPaths(): string[] {
  return SOURCE_PATHS.flatMap((entry) =>
    entry === 'scripts'
      ? readdirSync(path.join(ROOT, entry))
          .filter((child) => child !== FIXTURES)
          .map((child) => `${entry}/${child}`)
      : [entry],
  );
}

export interface CycleReport {
  cycles: string[][];
  /** Imports of the project's own modules (relative or `@/`) that did not resolve: edges the graph would miss. */
  unresolved: string[];
}

/** The tsconfig's compiler options with an absolute baseUrl: madge re-reads them and would resolve `@/` from the working directory. */
function compilerOptions(): Record<string, unknown> {
  const config = JSON.parse(readFileSync(path.join(ROOT, 'tsconfig.json'), 'utf8')) as { compilerOptions: Record<string, unknown> };
  return { ...config.compilerOptions, baseUrl: ROOT };
}

/** The cycles among the modules under `paths` (relative to the repository root), each as a list of files. */
export async function findCycles(paths: readonly string[]): Promise<CycleReport> {
  const graph = await madge(
    paths.map((p) => path.join(ROOT, p)),
    {
      baseDir: ROOT,
      fileExtensions: ['ts', 'tsx'],
      tsConfig: { compilerOptions: compilerOptions() },
      excludeRegExp: [/(^|\/)node_modules\//, /^\.next/],
    },
  );
  const unresolved = graph.warnings().skipped.filter((specifier) => specifier.startsWith('.') || specifier.startsWith('@/'));
  return { cycles: graph.circular(), unresolved };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const { cycles, unresolved } = await findCycles(args.length > 0 ? args : defaultPaths());
  for (const specifier of unresolved) console.error(`lint:cycles: an import of ${JSON.stringify(specifier)} does not resolve`);
  if (cycles.length > 0) {
    console.error(`lint:cycles: ${cycles.length} import cycle${cycles.length === 1 ? '' : 's'}`);
    for (const cycle of cycles) console.error(`  ${[...cycle, cycle[0]].join(' → ')}`);
  }
  if (cycles.length > 0 || unresolved.length > 0) process.exitCode = 1;
  else console.log('lint:cycles: no import cycle');
}

if (require.main === module) void main();
