// Part of `npm run lint` (vitest project `lint`): the layer rules of eslint.config.mjs, run through ESLint itself: given a
// module in one layer importing another, expect lint to fail (or pass) with
// the rule that names the layer. And the cycle check `npm run lint` runs
// (scripts/check-cycles.ts): given a deliberate cycle, expect it named and a
// non-zero exit.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
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

/** Per zone of eslint.config.mjs, at least one import it forbids: [file, code, what the refusal says]. */
const PROBES: [string, string, string][] = [
  ['lib/status/fixture.ts', "import { readAllFacts } from '../server/live/facts';\nexport const x = readAllFacts;\n", 'lib/status is pure'],
  ['lib/status/fixture.ts', "import { DEFAULT_LEASE_TIMING } from '../lease/config';\nexport const x = DEFAULT_LEASE_TIMING;\n", 'lib/status is pure'],
  ['components/fixture.tsx', "import { readAllFacts } from '@/lib/server/live/facts';\nexport const x = readAllFacts;\n", 'Browser code'],
  ['lib/client/fixture.ts', "import { createPool } from '../../db/pool';\nexport const x = createPool;\n", 'Browser code'],
  ['app/fixture/page.tsx', "import { readAllFacts } from '@/lib/server/live/facts';\nexport const x = readAllFacts;\n", 'only through its entry'],
  ['lib/scheduler/fixture.ts', "import { StatusService } from '../server/service';\nexport const x = StatusService;\n", 'lib/scheduler runs any job'],
  ['lib/scheduler/fixture.ts', "import { JOBS } from '../jobs';\nexport const x = JOBS;\n", 'lib/scheduler runs any job'],
  ['lib/scheduler/runtime-fixture.ts', "import { JOBS } from '../jobs/index';\nexport const x = JOBS;\n", 'never lib/jobs'],
  [
    'lib/cli/fixture.ts',
    "import { SchedulerRuntime } from '../scheduler/runtime';\nexport const x = SchedulerRuntime;\n",
    'lib/cli runs jobs through lib/scheduler/index.ts only',
  ],
  [
    'lib/cli/fixture.ts',
    "import { StatusService } from '../server/service';\nexport const x = StatusService;\n",
    'lib/cli reads nothing of lib/server but its environment',
  ],
  ['lib/jobs/fixture.ts', "import { COMMANDS } from '../cli/main';\nexport const x = COMMANDS;\n", 'lib/cli is the composition root'],
  ['lib/server/fixture.ts', "import { appendReport } from '../scheduler/report-store';\nexport const x = appendReport;\n", 'lib/scheduler internals'],
  ['lib/lease/fixture.ts', "import { runScheduler } from '../scheduler/runtime';\nexport const x = runScheduler;\n", 'lib/lease is the authority protocol'],
  ['lib/scheduler/fixture.ts', "import { LeaseAuthority } from '../lease/authority';\nexport const x = LeaseAuthority;\n", 'lib/lease has one public door'],
  ['scripts/fixture.ts', "import { writeFenced } from '../lib/lease/fenced-write';\nexport const x = writeFenced;\n", 'lib/lease has one public door'],
  [
    'lib/jobs/example/fixture.ts',
    "import { runScheduler } from '../../scheduler/runtime';\nexport const x = runScheduler;\n",
    'only through lib/scheduler/index.ts',
  ],
  ['lib/alerts/fixture.ts', "import { readAllFacts } from '../server/live/facts';\nexport const x = readAllFacts;\n", 'lib/alerts is pure'],
  ['db/fixture.ts', "import { project } from '../lib/status';\nexport const x = project;\n", 'db is the bottom layer'],
  ['lib/ingest/fixture.ts', "import { authorizeWrite } from '../auth/guard';\nexport const x = authorizeWrite;\n", 'lib/ingest stores reports'],
  ['lib/ingest/fixture.ts', "import { StatusService } from '../server/service';\nexport const x = StatusService;\n", 'lib/ingest reads nothing of lib/server'],
  ['lib/telemetry/fixture.ts', "import { project } from '../status';\nexport const x = project;\n", 'lib/telemetry is below every layer'],
  ['lib/config/fixture.ts', "import { project } from '../status';\nexport const x = project;\n", 'lib/config is below every layer'],
  ['lib/config/fixture.ts', "import { HELP } from '../../scripts/serve';\nexport const x = HELP;\n", 'lib/config is below every layer'],
  ['lib/config/fixture.ts', "import { createPool } from '../../db/pool';\nexport const x = createPool;\n", 'lib/config takes only the reader role'],
  ['lib/server/domain/fixture.ts', "import { httpError } from '../http/result';\nexport const x = httpError;\n", 'lib/server/domain is the bottom'],
  [
    'lib/server/store/fixture.ts',
    "import { readAllFacts } from '../live/facts';\nexport const x = readAllFacts;\n",
    "lib/server/store is the store's observer",
  ],
  [
    'lib/server/store/fixture.ts',
    "import { json } from '../../http/respond';\nexport const x = json;\n",
    "lib/server/store is the store's observer and deadline: no HTTP",
  ],
  ['lib/server/live/fixture.ts', "import { readHistory } from '../asof/history';\nexport const x = readHistory;\n", 'lib/server/live is a read'],
  ['lib/server/asof/fixture.ts', "import { parseInstant } from '../http/params';\nexport const x = parseInstant;\n", 'lib/server/asof is a read'],
  ['lib/server/alerts/fixture.ts', "import { StatusService } from '../service';\nexport const x = StatusService;\n", 'lib/server/alerts is a read'],
  ['lib/server/audit/fixture.ts', "import { json } from '../../http/respond';\nexport const x = json;\n", 'lib/server/audit is a read'],
  ['lib/server/metrics/fixture.ts', "import { readDetail } from '../asof/detail';\nexport const x = readDetail;\n", 'lib/server/metrics is a read'],
  ['lib/server/service.ts', "import { respond } from './http/handlers';\nexport const x = respond;\n", 'lib/server/service.ts composes reads'],
  ['lib/server/http/fixture.ts', "import { readSchedulerList } from '../index';\nexport const x = readSchedulerList;\n", 'sits below the door'],
  ['lib/http/fixture.ts', "import { StatusService } from '../server/service';\nexport const x = StatusService;\n", 'lib/http is shared HTTP plumbing'],
  [
    'lib/http/fixture.ts',
    "import { resolveIdentity } from '../auth/identity';\nexport const x = resolveIdentity;\n",
    'lib/http is shared HTTP plumbing: it imports only',
  ],
  [
    'lib/server/http/fixture.ts',
    "import { resolveIdentity } from '../../auth/identity';\nexport const x = resolveIdentity;\n",
    'lib/server never reaches into lib/auth',
  ],
  [
    'lib/actions/fixture.ts',
    "import { parseInstant } from '../server/http/params';\nexport const x = parseInstant;\n",
    'lib/actions never reaches into the status reads',
  ],
  ['lib/status/fixture.ts', "import { findCycles as y } from '../../scripts/check-cycles';\nexport const x = y;\n", 'lib/status is pure'],
  ['lib/api/fixture.ts', "import { ALERT_NAMES } from '../alerts/catalogue';\nexport const x = ALERT_NAMES;\n", 'lib/api describes the contract'],
  ['lib/api/fixture.ts', "import { x as y } from '../../db/schema';\nexport const x = y;\n", 'lib/api describes the contract'],
  [
    'lib/alerts/fixture.ts',
    "import { AlertmanagerTarget } from './delivery/target';\nexport const x = AlertmanagerTarget;\n",
    'delivery, local and store (I/O) import the rules',
  ],
  ['lib/alerts/fixture.ts', "import { x as y } from '../../app/layout';\nexport const x = y;\n", 'lib/alerts is pure'],
  ['lib/alerts/delivery/fixture.ts', "import { JOBS } from '../../jobs';\nexport const x = JOBS;\n", 'lib/alerts/delivery talks to Alertmanager'],
  [
    'lib/alerts/store/fixture.ts',
    "import { StatusService } from '../../server/service';\nexport const x = StatusService;\n",
    'lib/alerts/store reads and writes the alert tables',
  ],
  [
    'lib/cli/fixture.ts',
    "import { basePath } from '../client/base-path';\nexport const x = basePath;\n",
    'lib/cli composes a job from lib/jobs with the runtime',
  ],
  [
    'lib/cli/fixture.ts',
    "import { squaresJob } from '../jobs/example-squares/job';\nexport const x = squaresJob;\n",
    'lib/cli reaches lib/jobs only through its registry',
  ],
  ['lib/jobs/fixture.ts', "import { basePath } from '../client/base-path';\nexport const x = basePath;\n", 'lib/jobs: no UI'],
  ['lib/server/fixture.ts', "import { JOBS } from '../jobs';\nexport const x = JOBS;\n", 'lib/server: reads only'],
  ['lib/retention/fixture.ts', "import { JOBS } from '../jobs';\nexport const x = JOBS;\n", 'sit below the runtime and the app'],
  ['lib/auth/fixture.ts', "import { SchedulerRuntime } from '../scheduler/runtime';\nexport const x = SchedulerRuntime;\n", 'at most its public contract'],
  ['lib/actions/fixture.ts', "import { SchedulerRuntime } from '../scheduler';\nexport const x = SchedulerRuntime;\n", 'lib/actions: writes for operators'],
  ['lib/host/fixture.ts', "import { basePath } from '../client/base-path';\nexport const x = basePath;\n", 'lib/host serves the app and hosts jobs'],
  ['lib/host/fixture.ts', "import { StatusService } from '../server/service';\nexport const x = StatusService;\n", 'lib/host answers the hot reads through'],
  [
    'lib/host/fixture.ts',
    "import { SchedulerRuntime } from '../scheduler/runtime';\nexport const x = SchedulerRuntime;\n",
    'lib/host runs jobs through lib/scheduler/index.ts only',
  ],
  [
    'lib/host/fixture.ts',
    "import { squaresJob } from '../jobs/example-squares/job';\nexport const x = squaresJob;\n",
    'lib/host takes jobs from lib/jobs/index.ts only',
  ],
  ['app/fixture/page.tsx', "import { createPool } from '@/db/pool';\nexport const x = createPool;\n", 'app is routes only'],
  [
    'lib/scheduler/fixture.ts',
    "import { retentionPlannerJob } from '../../examples/demo/retention-planner';\nexport const x = retentionPlannerJob;\n",
    'The product never imports examples/',
  ],
  ['db/fixture.ts', "import { planItems } from '../examples/demo/db/schema';\nexport const x = planItems;\n", 'The product never imports examples/'],
  ['examples/demo/fixture.ts', "import { findCycles } from '../../scripts/check-cycles';\nexport const x = findCycles;\n", 'never its tools'],
  [
    'examples/demo/retention-planner/fixture.ts',
    "import { claimOccurrence } from '../../../lib/scheduler/occurrences';\nexport const x = claimOccurrence;\n",
    "The demo's job takes the runtime as any job does",
  ],
];

describe('layer rules', () => {
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

  it('every zone of eslint.config.mjs has a probe above that its message refuses', async () => {
    const configPath = '../eslint.config.mjs';
    const { default: config } = (await import(configPath)) as { default: { rules?: Record<string, unknown> }[] };
    const layers = config.find((entry) => entry.rules?.[LAYERS]);
    const zones = (layers!.rules![LAYERS] as [string, { zones: { message: string }[] }])[1].zones;
    expect(zones.length).toBeGreaterThan(40);
    // Proven means refused: some probe's lint error carries exactly this zone's message (two zones with
    // similar messages cannot share one probe).
    const refusals = new Set((await Promise.all(PROBES.map(([file, code]) => lint(file, code)))).flat());
    const unproven = zones.map((zone) => zone.message).filter((message) => ![...refusals].some((e) => e.startsWith(LAYERS) && e.endsWith(` zone. ${message}`)));
    expect(unproven).toEqual([]);
  });

  it.each([
    ['lib/server/fixture.ts', "import { project } from '../status';\nexport const x = project;\n"],
    ['app/fixture/page.tsx', "import { readSchedulerList } from '@/lib/server';\nexport const x = readSchedulerList;\n"],
    ['lib/scheduler/fixture.ts', "import { leaseConfig } from '../lease';\nexport const x = leaseConfig;\n"],
    ['components/fixture.tsx', "import { project } from '@/lib/status';\nexport const x = project;\n"],
    ['lib/server/asof/fixture.ts', "import { readAllFacts } from '../live/facts';\nexport const x = readAllFacts;\n"],
    ['lib/actions/fixture.ts', "import { checkName } from '../http/params';\nexport const x = checkName;\n"],
    ['examples/demo/fixture.ts', "import { runScheduler } from '../../lib/cli/scheduler';\nexport const x = runScheduler;\n"],
  ])(
    '%s: an allowed import passes',
    async (file, code) => {
      expect(await lint(file, code)).toEqual([]);
    },
    SLOW,
  );

  it(
    'keeps I/O packages and the clock out of the pure core, and the database out of the browser',
    async () => {
      expect(await lint('lib/status/fixture.ts', "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n")).toEqual([
        expect.stringMatching(/^no-restricted-imports: .*lib\/status is pure/),
      ]);
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
