/**
 * Prebuilt bundles of the child entry points tests start by the hundred
 * (schedulers, the archive service), so each child starts in a tenth of a
 * second instead of paying tsx's transpile of the runtime (about a second of
 * CPU each). The test tiers' global setups build them once per run with
 * esbuild and hand the folder down in LEASEBOARD_HARNESS_CHILD_BUNDLES; JsonLineProcess
 * (../json-line-process.ts) runs `node BUNDLE` instead of `node --import tsx
 * ENTRY` while it is set.
 *
 * Guarantees: a bundle runs the same sources as the tsx entry, packages
 * included — most of a child's start was Node resolving and reading the
 * thousand small files of zod, drizzle-orm and OpenTelemetry (0.65 s of CPU
 * for `--help`; bundled, 0.2 s). Kept external, loaded by Node from the
 * repository's node_modules beside which the folder lives: `pg`, and the
 * instrumentation that patches `pg` as Node's `require` loads it (a bundled
 * `pg` would run untraced; the bundled OpenTelemetry API and the external
 * instrumentation's share one registration, which the API keeps on a global
 * by version). `__dirname` and `__filename` keep each source module's own
 * location; each run gets its own folder, removed by `remove()`.
 * Not guaranteed: freshness — sources edited during a run are not rebuilt.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import { ROOT } from '../json-line-process';

/** Entry points, relative to the repository root, that JsonLineProcess starts. */
const CHILD_ENTRIES = ['lib/cli/main.ts', 'examples/demo/scheduler.ts', 'examples/demo/archive/cli.ts'] as const;

/** Packages Node itself loads (see the guarantees above); pg-native is pg's optional native driver, not installed. */
const LOADED_BY_NODE = ['pg', 'pg-pool', 'pg-native', '@opentelemetry/instrumentation', '@opentelemetry/instrumentation-pg'];

export const CHILD_BUNDLES_ENV = 'LEASEBOARD_HARNESS_CHILD_BUNDLES';

/** A module's own directory and file, written in where the source names them (a bundle has one of each). */
const ownLocation: Plugin = {
  name: 'own-location',
  setup(esbuild) {
    esbuild.onLoad({ filter: /\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const contents = source.replace(/\b__dirname\b/g, JSON.stringify(path.dirname(args.path))).replace(/\b__filename\b/g, JSON.stringify(args.path));
      return { contents, loader: 'ts' };
    });
  },
};

export interface ChildBundles {
  dir: string;
  remove(): Promise<void>;
}

export async function buildChildBundles(): Promise<ChildBundles> {
  const dir = path.join(ROOT, 'node_modules', '.cache', 'leaseboard-child-bundles', `run-${process.pid}-${randomBytes(4).toString('hex')}`);
  await mkdir(dir, { recursive: true });
  await build({
    entryPoints: Object.fromEntries(CHILD_ENTRIES.map((entry) => [entry.replace(/\.ts$/, ''), path.join(ROOT, entry)])),
    outdir: dir,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: `node${process.versions.node.split('.')[0]}`,
    external: LOADED_BY_NODE,
    tsconfig: path.join(ROOT, 'tsconfig.json'),
    plugins: [ownLocation],
    logLevel: 'warning',
  });
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
