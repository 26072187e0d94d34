/**
 * `npm run build:packages [-- --next-dist DIR]`: the two packages a user installs, each a folder
 * ready for `npm pack` (gitignored; manifests in packages/*\/package.json, whose `dependencies` name
 * packages and take their versions from the root package.json, the one place versions are kept):
 *
 * - packages/client/dist — `@leaseboard/client`: the lease client and scheduler runtime
 *   (lib/scheduler's entry) as one ESM file with type declarations, and `leaseboard run | scheduler |
 *   migrate` as one CommonJS bundle with the migrations beside it. Runtime dependencies: `pg` and
 *   `drizzle-orm` (a job's fenced tables are drizzle tables). Everything else it uses is bundled;
 *   tracing is left out (the `leaseboard` package has it).
 * - packages/server/dist — `leaseboard`: Next's standalone output of a production build (the server
 *   files and only the node_modules files they load), its static files and public/, and the CLI
 *   bundled beside them in app/bin, where `start` runs lib/cli/start.ts — our server, with its
 *   headers, page cache and hosted jobs — on the shipped build. No npm dependencies: what the build
 *   needs at run time is in app/node_modules.
 *
 * `--only client|server` builds one of them.
 * The dashboard build: `--next-dist DIR` takes an existing build made with LEASEBOARD_HARNESS_STANDALONE=1
 * (e.g. the e2e build, .next-e2e: `npm run smoke:pack` reuses it, base path included); without it,
 * a build of its own in .next-package (about a minute), with the base path LEASEBOARD_BASE_PATH
 * names, if any.
 *
 * Guarantees: each dist is made afresh; the build stops (exit 1, naming it) when a package would
 * bundle Next, React, recharts or the OpenTelemetry SDK into the client, or when the build has no
 * standalone output.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { build, type BuildOptions, type Metafile, type Plugin } from 'esbuild';
import { SHIPPED_CONFIG_FILE } from '../packages/server/shipped-build';

const ROOT = path.resolve(__dirname, '..');
const CLIENT = path.join(ROOT, 'packages/client');
const SERVER = path.join(ROOT, 'packages/server');
const NODE_TARGET = 'node20.19';

/** What must never reach the client's bundles (a dashboard's, or tracing's, packages). */
const NOT_IN_CLIENT = /node_modules\/(next|react|react-dom|recharts|@opentelemetry\/(?!api\/))/;
/** The client's runtime dependencies: loaded from node_modules, never bundled. */
const CLIENT_EXTERNAL = ['pg', 'drizzle-orm', 'drizzle-orm/*'];

function log(line: string) {
  process.stdout.write(`build:packages: ${line}\n`);
}

/** Thrown, not exited: `npm run smoke:pack` calls this build and cleans up after a failure. */
function fail(message: string): never {
  throw new Error(`build:packages: ${message}`);
}

/** Tracing stays out of the client: lib/telemetry/register (imported first by the CLI) becomes "off". */
const noTracing: Plugin = {
  name: 'no-tracing',
  setup(esbuild) {
    esbuild.onLoad({ filter: /lib\/telemetry\/register\.ts$/ }, () => ({
      contents:
        "if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT || process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) process.stderr.write('leaseboard: tracing is in the leaseboard package; @leaseboard/client exports no traces\\n');\nexport const tracing = null;",
      loader: 'ts',
    }));
  },
};

const common: BuildOptions = {
  bundle: true,
  platform: 'node',
  target: NODE_TARGET,
  tsconfig: path.join(ROOT, 'tsconfig.json'),
  metafile: true,
  logLevel: 'warning',
  legalComments: 'none',
};

function refuseInClient(metafile: Metafile, what: string) {
  const found = Object.keys(metafile.inputs).filter((input) => NOT_IN_CLIENT.test(input));
  if (found.length > 0) fail(`${what} would bundle ${found.slice(0, 5).join(', ')}`);
}

/** The examples (the demo's job, tables, archive, supervisor): no package carries them. */
const EXAMPLE_CODE = /^examples\//;

function refuseExampleCode(metafile: Metafile, what: string) {
  const found = Object.keys(metafile.inputs).filter((input) => EXAMPLE_CODE.test(input));
  if (found.length > 0) fail(`${what} would bundle the examples' ${found.slice(0, 5).join(', ')}`);
}

/** The manifest with each dependency's version from the root package.json. */
function manifest(dir: string): Record<string, unknown> {
  const rootPackage = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
  const versions = { ...rootPackage.dependencies, ...rootPackage.devDependencies };
  const own = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
  const pinned = (names: unknown) =>
    Object.fromEntries((names as string[]).map((name) => [name, versions[name] ?? fail(`${name}: not in the root package.json`)]));
  return {
    ...own,
    dependencies: pinned(own.dependencies ?? []),
    ...(own.peerDependencies ? { peerDependencies: pinned(own.peerDependencies) } : {}),
  };
}

/** A bin that only requires the bundle: lib/cli/main.ts then is not the main module, and leaves dispatch to the package's entry. */
function binShim(file: string, bundle: string) {
  writeFileSync(file, `#!/usr/bin/env node\n'use strict';\nrequire('./${bundle}');\n`, { mode: 0o755 });
}

/**
 * The declarations' relative imports with the file each resolves to (`./job` → `./job.js`,
 * `../lease` → `../lease/index.js`): the package is ESM, and TypeScript under `moduleResolution:
 * node16 | nodenext` (a Node ESM user's setting) resolves no extensionless relative import.
 */
function withExtensions(dir: string) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      withExtensions(full);
      continue;
    }
    if (!entry.name.endsWith('.d.ts')) continue;
    const source = readFileSync(full, 'utf8');
    const resolved = source.replace(/((?:from|import)\s*\(?\s*)(['"])(\.{1,2}\/[^'"]*)\2/g, (match, lead: string, quote: string, specifier: string) => {
      const target = path.resolve(dir, specifier);
      if (existsSync(`${target}.d.ts`)) return `${lead}${quote}${specifier}.js${quote}`;
      if (existsSync(path.join(target, 'index.d.ts'))) return `${lead}${quote}${specifier}/index.js${quote}`;
      return fail(`${path.relative(ROOT, full)}: no declaration for ${specifier}`);
    });
    writeFileSync(full, resolved);
  }
}

async function buildClient() {
  const dist = path.join(CLIENT, 'dist');
  rmSync(dist, { recursive: true, force: true });
  mkdirSync(dist, { recursive: true });
  const library = await build({
    ...common,
    entryPoints: { index: path.join(ROOT, 'lib/scheduler/index.ts') },
    outdir: dist,
    format: 'esm',
    external: CLIENT_EXTERNAL,
    // A CommonJS package bundled into ESM may still call `require` for a Node built-in.
    banner: { js: "import { createRequire as leaseboardCreateRequire } from 'node:module';\nconst require = leaseboardCreateRequire(import.meta.url);" },
  });
  refuseInClient(library.metafile!, 'the client library');
  const cli = await build({
    ...common,
    entryPoints: { cli: path.join(CLIENT, 'cli.ts') },
    outdir: dist,
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    external: CLIENT_EXTERNAL,
    plugins: [noTracing],
  });
  refuseInClient(cli.metafile!, 'the client CLI');
  refuseExampleCode(cli.metafile!, 'the client CLI');
  binShim(path.join(dist, 'leaseboard.cjs'), 'cli.cjs');
  // db/migrate.ts finds them beside itself (__dirname: the bundle's folder).
  cpSync(path.join(ROOT, 'db/migrations'), path.join(dist, 'migrations'), { recursive: true });
  const tsc = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', path.join(CLIENT, 'tsconfig.json')], { stdio: 'inherit' });
  if (tsc.status !== 0) fail('type declarations: tsc failed');
  withExtensions(path.join(dist, 'types'));
  writeFileSync(path.join(dist, 'package.json'), `${JSON.stringify(manifest(CLIENT), null, 2)}\n`);
  log(`client → ${path.relative(ROOT, dist)}`);
}

/** The dist dir of a standalone build: DIR as given, else a fresh build of its own. */
function dashboardBuild(nextDist: string | undefined): string {
  if (nextDist !== undefined) return path.resolve(ROOT, nextDist);
  // A base path is baked in: LEASEBOARD_BASE_PATH when set (a team serving under a sub-path builds its own package), else none.
  log(`next build into .next-package (standalone, base path ${JSON.stringify(process.env.LEASEBOARD_BASE_PATH ?? '')})…`);
  const started = Date.now();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LEASEBOARD_HARNESS_STANDALONE: '1',
    LEASEBOARD_HARNESS_DIST_DIR: '.next-package',
    NEXT_TELEMETRY_DISABLED: '1',
  };
  const next = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/next/dist/bin/next'), 'build'], { cwd: ROOT, env, stdio: 'inherit' });
  if (next.status !== 0) fail('next build failed');
  log(`next build: ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return path.join(ROOT, '.next-package');
}

/**
 * Next links the packages it keeps external (pg, prom-client) into <distDir>/node_modules under
 * hashed names; npm pack leaves links out, so each becomes a folder that requires its target —
 * the one copy in app/node_modules, so the dashboard and our server share one prom-client registry.
 */
function replaceLinks(dir: string) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) {
      const target = path.resolve(dir, readlinkSync(full));
      rmSync(full);
      mkdirSync(full);
      writeFileSync(path.join(full, 'package.json'), `${JSON.stringify({ name: entry.name, private: true, main: 'index.js' })}\n`);
      writeFileSync(path.join(full, 'index.js'), `module.exports = require(${JSON.stringify(path.relative(full, target))});\n`);
    } else if (entry.isDirectory()) replaceLinks(full);
  }
}

/**
 * sharp, which the standalone output carries for next/image (loaded only when an image is
 * transformed): the dashboard has no next/image, and sharp's native half (@img) is built for this
 * machine's platform, wrong on any other — 19 MB, two fifths of the package.
 */
const UNUSED_PACKAGES = ['sharp', '@img'];

function leaveOutSharp(app: string) {
  const users = ['app', 'components'].flatMap((folder) =>
    readdirSync(path.join(ROOT, folder), { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.tsx?$/.test(file) && readFileSync(path.join(ROOT, folder, file), 'utf8').includes("'next/image'"))
      .map((file) => path.join(folder, file)),
  );
  if (users.length > 0) fail(`${users.join(', ')} import next/image: the package then needs sharp for each platform it runs on`);
  for (const name of UNUSED_PACKAGES) rmSync(path.join(app, 'node_modules', name), { recursive: true, force: true });
}

/** The packages the standalone output carries: our server loads these from there, and bundles the rest. */
function shippedPackages(nodeModules: string): string[] {
  return readdirSync(nodeModules).flatMap((name) =>
    name.startsWith('@') ? readdirSync(path.join(nodeModules, name)).map((inner) => `${name}/${inner}`) : name.startsWith('.') ? [] : [name],
  );
}

async function buildServer(nextDist: string | undefined) {
  const distDir = dashboardBuild(nextDist);
  const standalone = path.join(distDir, 'standalone');
  const serverJs = path.join(standalone, 'server.js');
  if (!existsSync(serverJs)) fail(`${path.relative(ROOT, distDir)} has no standalone output: build it with LEASEBOARD_HARNESS_STANDALONE=1`);
  const config = /^const nextConfig = (.*)$/m.exec(readFileSync(serverJs, 'utf8'))?.[1] ?? fail(`${serverJs}: no nextConfig line`);
  const dist = path.join(SERVER, 'dist');
  const app = path.join(dist, 'app');
  rmSync(dist, { recursive: true, force: true });
  cpSync(standalone, app, { recursive: true, verbatimSymlinks: true });
  rmSync(path.join(app, 'server.js'));
  // Next copies the repository's package.json for module resolution; the app needs only its type.
  writeFileSync(path.join(app, 'package.json'), `${JSON.stringify({ private: true, type: 'commonjs' })}\n`);
  replaceLinks(app);
  leaveOutSharp(app);
  cpSync(path.join(distDir, 'static'), path.join(app, path.basename(distDir), 'static'), { recursive: true });
  cpSync(path.join(ROOT, 'public'), path.join(app, 'public'), { recursive: true });
  const bin = path.join(app, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(path.join(bin, SHIPPED_CONFIG_FILE), `${config}\n`);
  const cli = await build({
    ...common,
    entryPoints: { cli: path.join(SERVER, 'cli.ts') },
    outdir: bin,
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
    external: shippedPackages(path.join(app, 'node_modules')).flatMap((name) => [name, `${name}/*`]),
  });
  refuseExampleCode(cli.metafile!, 'the server CLI');
  binShim(path.join(bin, 'leaseboard.cjs'), 'cli.cjs');
  cpSync(path.join(ROOT, 'db/migrations'), path.join(bin, 'migrations'), { recursive: true });
  writeFileSync(path.join(dist, 'package.json'), `${JSON.stringify(manifest(SERVER), null, 2)}\n`);
  log(`server → ${path.relative(ROOT, dist)} (dashboard build: ${path.relative(ROOT, distDir)})`);
}

export async function buildPackages(options: { nextDist?: string } = {}): Promise<{ client: string; server: string }> {
  await buildClient();
  await buildServer(options.nextDist);
  return { client: path.join(CLIENT, 'dist'), server: path.join(SERVER, 'dist') };
}

if (require.main === module) {
  let values: { 'next-dist'?: string; only?: string };
  try {
    ({ values } = parseArgs({ options: { 'next-dist': { type: 'string' }, only: { type: 'string' } }, strict: true }));
  } catch (error) {
    process.stderr.write(`build:packages: ${(error as Error).message}\n`);
    process.exit(2);
  }
  if (values.only !== undefined && values.only !== 'client' && values.only !== 'server') {
    process.stderr.write(`build:packages: --only: client or server, got ${JSON.stringify(values.only)}\n`);
    process.exit(2);
  }
  const build =
    values.only === 'client' ? buildClient() : values.only === 'server' ? buildServer(values['next-dist']) : buildPackages({ nextDist: values['next-dist'] });
  build.catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
