/**
 * `npm run lint:cycles [-- PATH …]`: no import cycles among the project's
 * modules (type-only imports included: a cycle of types is still a layer
 * that reaches back). madge builds the graph once, with the tsconfig's `@/`
 * paths, in seconds where ESLint's import/no-cycle took most of a minute.
 * Prints each cycle and exits 1 when there is one; exits 0 otherwise.
 * Default paths: every top-level source folder (scripts/lint-fixtures, which
 * holds a deliberate cycle for scripts/lint-rules.unit.test.ts, left out).
 */
import path from 'node:path';
import madge from 'madge';

const ROOT = path.resolve(__dirname, '..');
export const SOURCE_FOLDERS = ['app', 'components', 'lib', 'db', 'e2e', 'scripts'];

/** The cycles among the modules under `paths` (relative to the repository root), each as a list of files. */
export async function findCycles(paths: readonly string[], exclude: readonly RegExp[] = []): Promise<string[][]> {
  const graph = await madge(
    paths.map((p) => path.join(ROOT, p)),
    {
      baseDir: ROOT,
      fileExtensions: ['ts', 'tsx', 'mts'],
      tsConfig: path.join(ROOT, 'tsconfig.json'),
      excludeRegExp: [/(^|\/)node_modules\//, /^\.next/, ...exclude],
    },
  );
  return graph.circular();
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const cycles = args.length > 0 ? await findCycles(args) : await findCycles(SOURCE_FOLDERS, [/^scripts\/lint-fixtures\//]);
  if (cycles.length === 0) {
    console.log('lint:cycles: no import cycle');
    return;
  }
  console.error(`lint:cycles: ${cycles.length} import cycle${cycles.length === 1 ? '' : 's'}`);
  for (const cycle of cycles) console.error(`  ${[...cycle, cycle[0]].join(' → ')}`);
  process.exitCode = 1;
}

if (require.main === module) void main();
