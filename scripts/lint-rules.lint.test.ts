// Part of `npm run lint` (vitest project `lint`): the layer rules of eslint.config.mjs, run through ESLint itself: given a
// module in one layer importing another, expect lint to fail (or pass) with
// the rule that names the layer. And the cycle check `npm run lint` runs
// (scripts/check-cycles.ts): given a deliberate cycle, expect it named and a
// non-zero exit.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { findCycles } from './check-cycles';

const ROOT = path.resolve(__dirname, '..');
const layersOnly = new ESLint({ cwd: ROOT, ignore: false });

async function lint(filePath: string, code: string): Promise<string[]> {
  const [result] = await layersOnly.lintText(code, { filePath: path.join(ROOT, filePath) });
  return (result?.messages ?? []).filter((m) => m.severity === 2).map((m) => `${m.ruleId}: ${m.message}`);
}

const LAYERS = 'import/no-restricted-paths';
/** ESLint loads its parsers and resolvers on first use: seconds on a busy machine. */
const SLOW = 60_000;

beforeAll(() => lint('lib/status/warm-up.ts', 'export {};\n'), 120_000);

/** The layer table of eslint.config.mjs and what it derives (plain JavaScript: typed here). */
interface LayerTable {
  LAYERS: Record<string, { may: string[]; why: string }>;
  SOURCE_ROOTS: string[];
  layerPaths(key: string): string[];
  layerMessage(key: string): string;
  default: { rules?: Record<string, unknown> }[];
}
const CONFIG_PATH = '../eslint.config.mjs';
let table: LayerTable;
beforeAll(async () => {
  table = (await import(CONFIG_PATH)) as LayerTable;
});

const isDirectory = (p: string) => existsSync(path.join(ROOT, p)) && statSync(path.join(ROOT, p)).isDirectory();
const children = (folder: string) => readdirSync(path.join(ROOT, folder)).map((name) => `${folder}/${name}`);
const covers = (allowed: string[], p: string) => allowed.some((a) => p === a || p.startsWith(`${a}/`));

/** Production modules under a path (tests and testing/ compose layers on purpose and are not held to them). */
function modulesUnder(p: string): string[] {
  if (!isDirectory(p)) return /\.tsx?$/.test(p) ? [p] : [];
  return children(p)
    .filter((child) => !/(^|\/)(testing|node_modules|lint-fixtures)$/.test(child))
    .flatMap((child) => (isDirectory(child) ? modulesUnder(child) : /(?<!\.test|\.d)\.tsx?$/.test(child) ? [child] : []));
}

/** Where a key's probe pretends to live. */
const probeFile = (key: string) => `${key.replace(/\/\*$/, '')}/layer-probe.ts`;

/** An import of `module` written from `file`. */
function importLine(file: string, module: string): string {
  const relative = path.relative(path.dirname(file), module).replace(/\.tsx?$/, '');
  return `import '${relative.startsWith('.') ? relative : `./${relative}`}';`;
}

/** For one key: a module of every other layer it may not import (one each), and one of every entry it may. */
function probesOf(key: string): { refused: string[]; allowed: string[] } {
  const may = table.LAYERS[key]?.may ?? [];
  const allowed = [...table.layerPaths(key), ...may.flatMap((entry) => table.layerPaths(entry))];
  const refused = Object.keys(table.LAYERS)
    .filter((other) => other !== key)
    .map((other) =>
      table
        .layerPaths(other)
        .flatMap(modulesUnder)
        .find((module) => !covers(allowed, module)),
    )
    .filter((module): module is string => module !== undefined);
  const permitted = may.map((entry) => table.layerPaths(entry).flatMap(modulesUnder)[0]).filter((module): module is string => module !== undefined);
  return { refused, allowed: permitted };
}

describe('layers as allow-lists', () => {
  it('every source folder has a layer (a key of LAYERS), and every key and entry names a real path', () => {
    const { LAYERS, SOURCE_ROOTS } = table;
    const keyed = (p: string) => p in LAYERS || `${p}/*` in LAYERS;
    // A root with no key of its own is a shelf of layers: each thing in it needs one.
    const unkeyed = SOURCE_ROOTS.flatMap((root) => (keyed(root) ? [] : children(root).filter((child) => !keyed(child))));
    expect(unkeyed).toEqual([]);
    const named = Object.entries(LAYERS).flatMap(([key, { may }]) => [key, ...may]);
    expect(named.filter((p) => !existsSync(path.join(ROOT, p.replace(/\/\*$/, ''))))).toEqual([]);
    expect(Object.keys(LAYERS).length).toBeGreaterThan(40);
  });

  it(
    'per layer, an import of every layer not on its list fails lint with its message, and an import of each entry on it passes',
    async () => {
      const failures: string[] = [];
      for (const key of Object.keys(table.LAYERS)) {
        const file = probeFile(key);
        const { refused, allowed } = probesOf(key);
        expect(refused.length, `${key} refuses nothing`).toBeGreaterThan(0);
        const [result] = await layersOnly.lintText(`${refused.map((m) => importLine(file, m)).join('\n')}\n`, { filePath: path.join(ROOT, file) });
        const message = ` zone. ${table.layerMessage(key)}`;
        const refusedLines = new Set((result?.messages ?? []).filter((m) => m.ruleId === LAYERS && m.message.endsWith(message)).map((m) => m.line));
        failures.push(...refused.filter((_, i) => !refusedLines.has(i + 1)).map((module) => `${key} may import ${module}`));
        if (allowed.length > 0) {
          const passed = await lint(file, `${allowed.map((m) => importLine(file, m)).join('\n')}\n`);
          failures.push(...passed.filter((e) => e.startsWith(LAYERS)).map((e) => `${key} refuses an entry on its list: ${e}`));
        }
      }
      expect(failures).toEqual([]);
    },
    4 * SLOW,
  );

  /** Rules finer than a folder, and the arrows the allow-lists exist to refuse, by name. */
  const PROBES: [string, string, string][] = [
    ['lib/server/service.ts', "import { respond } from './http/handlers';\nexport const x = respond;\n", 'lib/server/service.ts composes reads'],
    [
      'lib/lease/fixture.ts',
      "import { REASON_MAX_LENGTH } from '../status/format';\nexport const x = REASON_MAX_LENGTH;\n",
      'lib/lease is the authority protocol',
    ],
    ['lib/scheduler/fixture.ts', "import { issueToken } from '../ingest/tokens';\nexport const x = issueToken;\n", 'lib/scheduler runs any job'],
    ['lib/scheduler/fixture.ts', "import { resolveIdentity } from '../auth/identity';\nexport const x = resolveIdentity;\n", 'lib/scheduler runs any job'],
    ['lib/child/fixture.ts', "import { StatusService } from '../server/service';\nexport const x = StatusService;\n", 'lib/child starts'],
    ['lib/child/fixture.ts', "import { x as y } from '../scheduler/events';\nexport const x = y;\n", 'lib/child starts'],
    ['scripts/fixture.ts', "import { writeFenced } from '../lib/lease/fenced-write';\nexport const x = writeFenced;\n", 'scripts are the tools'],
    ['lib/status/fixture.ts', "import { findCycles as y } from '../../scripts/check-cycles';\nexport const x = y;\n", 'lib/status is the pure projection'],
  ];

  it.each(PROBES)(
    '%s: a forbidden import fails lint',
    async (file, code, says) => {
      const errors = await lint(file, code);
      expect(
        errors.some((e) => e.startsWith(LAYERS) && e.includes(says)),
        errors.join('\n'),
      ).toBe(true);
    },
    SLOW,
  );

  it('every zone of eslint.config.mjs is a layer of the table or has a probe above that its message refuses', async () => {
    const layers = table.default.find((entry) => entry.rules?.[LAYERS]);
    const zones = (layers!.rules![LAYERS] as [string, { zones: { message: string }[] }])[1].zones;
    const tableMessages = new Set(Object.keys(table.LAYERS).map((key) => table.layerMessage(key)));
    const refusals = (await Promise.all(PROBES.map(([file, code]) => lint(file, code)))).flat();
    const unproven = zones
      .map((zone) => zone.message)
      .filter((message) => !tableMessages.has(message) && !refusals.some((e) => e.startsWith(LAYERS) && e.endsWith(` zone. ${message}`)));
    expect(unproven).toEqual([]);
  });

  it.each([
    ['lib/server/fixture.ts', "import { project } from '../status';\nexport const x = project;\n"],
    ['app/fixture/page.tsx', "import { readSchedulerList } from '@/lib/server';\nexport const x = readSchedulerList;\n"],
    ['lib/scheduler/fixture.ts', "import { leaseConfig } from '../lease';\nexport const x = leaseConfig;\n"],
    ['components/fixture.tsx', "import { project } from '@/lib/status';\nexport const x = project;\n"],
    ['lib/lease/fixture.ts', "import { REASON_MAX_LENGTH } from '../limits';\nexport const x = REASON_MAX_LENGTH;\n"],
    ['examples/demo/fixture.ts', "import { runScheduler } from '../../lib/cli/scheduler';\nexport const x = runScheduler;\n"],
  ])(
    '%s: an allowed import passes (through the `@/` alias too)',
    async (file, code) => {
      expect(await lint(file, code)).toEqual([]);
    },
    SLOW,
  );
  it(
    'keeps I/O packages and the clock out of the pure core, and the database out of the browser',
    async () => {
      expect(
        await lint('lib/status/fixture.ts', "import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';\nexport const x = readFileSync;\n"),
      ).toEqual([expect.stringMatching(/^no-restricted-imports: .*lib\/status is pure/)]);
      expect(await lint('lib/alerts/fixture.ts', "import pg from 'pg';\nexport const x = pg;\n")).toEqual([expect.stringMatching(/^no-restricted-imports: /)]);
      expect(await lint('lib/status/fixture.ts', 'export const now = () => Date.now();\n')).toEqual([expect.stringMatching(/^no-restricted-properties: /)]);
      expect(await lint('lib/status/fixture.ts', 'export const now = () => new Date();\n')).toEqual([expect.stringMatching(/^no-restricted-syntax: /)]);
      expect(await lint('components/fixture.tsx', "import pg from 'pg';\nexport const x = pg;\n")).toEqual([
        expect.stringMatching(/^no-restricted-imports: .*Browser code/),
      ]);
    },
    SLOW,
  );
});

describe('cycles', () => {
  /** The cycle check as `npm run lint` runs it, on one path. */
  const checkCycles = (target: string) => spawnSync(process.execPath, ['--import', 'tsx', 'scripts/check-cycles.ts', target], { cwd: ROOT, encoding: 'utf8' });

  it(
    'an import of the project that does not resolve fails the check instead of dropping an edge',
    () => {
      const run = checkCycles('scripts/lint-fixtures/unresolved.ts');
      expect(run.status, run.stderr).toBe(1);
      expect(run.stderr).toContain('an import of "@/lib/no-such-module" does not resolve');
    },
    SLOW,
  );

  it(
    'an import cycle fails lint (scripts/lint-fixtures/cycle-a.ts ⇄ cycle-b.ts), and the check is part of `npm run lint`',
    () => {
      const run = checkCycles('scripts/lint-fixtures/cycle-a.ts');
      expect(run.status, run.stderr).toBe(1);
      expect(run.stderr).toContain('scripts/lint-fixtures/cycle-a.ts → scripts/lint-fixtures/cycle-b.ts → scripts/lint-fixtures/cycle-a.ts');
      const scripts = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
      expect(scripts.lint).toContain('tsx scripts/check-cycles.ts');
    },
    SLOW,
  );

  it(
    'a cycle of type-only imports, through the `@/` alias, counts too (type-cycle-a.ts ⇄ type-cycle-b.ts)',
    async () => {
      expect(await findCycles(['scripts/lint-fixtures/type-cycle-a.ts'])).toEqual({
        cycles: [['scripts/lint-fixtures/type-cycle-a.ts', 'scripts/lint-fixtures/type-cycle-b.ts']],
        unresolved: [],
      });
    },
    SLOW,
  );
});
