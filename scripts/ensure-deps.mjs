// Plain Node (runs before dependencies exist): installs them from the lockfile
// when node_modules is missing or older than package-lock.json, so the README's
// two commands work on a fresh clone. Also fetches Playwright's Chromium for
// `npm test` when the system has no /usr/bin/chromium.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

const stamp = 'node_modules/.package-lock.json';
if (!existsSync(stamp) || statSync(stamp).mtimeMs < statSync('package-lock.json').mtimeMs) {
  console.log('[setup] installing dependencies (npm ci)…');
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
if (process.argv.includes('--browser') && !existsSync('/usr/bin/chromium')) {
  const result = spawnSync('npx', ['playwright', 'install', 'chromium'], { stdio: 'inherit' });
  if (result.status !== 0) {
    console.error("[setup] no Chromium: install your distribution's chromium package or allow Playwright to download its own");
    process.exit(result.status ?? 1);
  }
}
