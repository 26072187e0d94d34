/**
 * `npm run attack` against `npm start` configured for production: OpenID Connect sign-in at a real
 * provider (oidc-provider, started here), LEASEBOARD_ANONYMOUS=none, an https-less public URL on
 * loopback. A second server of the suite's build and database, so the first one's budgets are untouched;
 * the attack runs from its own address, with the operator token (for the probes that need an identity to
 * reach what they test) and service tokens in files.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../db/free-port';
import { runDashboard } from '../examples/demo/next-build';
import { CLIENT_ID, CLIENT_SECRET, startProvider } from '../lib/auth/oidc/testing/provider';
import { insertServiceToken } from '../lib/auth/testing/service-token-rows';
import { E2E_BUILD_ENV } from './support/build';
import { E2E_BASE_PATH } from './support/e2e-env';
import { expect, test } from './fixtures/test';
import { type AttackRun, missedProbes, runAttack } from './support/attack-run';

const ROOT = path.resolve(__dirname, '..');

test('npm run attack holds against npm start with OpenID Connect and LEASEBOARD_ANONYMOUS=none', async ({ env }, testInfo) => {
  test.setTimeout(240_000);
  const port = await freePort();
  const site = `http://127.0.0.1:${port}${E2E_BASE_PATH}`;
  const provider = await startProvider({ redirectUri: `${site}/api/v1/session/oidc/callback`, postLogoutUri: `${site}/`, accounts: { root: ['sre-admins'] } });
  const serverEnv = { ...E2E_BUILD_ENV };
  delete serverEnv.HOST;
  const server = runDashboard(ROOT, ['-p', String(port)], {
    env: {
      ...serverEnv,
      DATABASE_URL: env.databaseUrl,
      LEASEBOARD_PUBLIC_URL: site,
      LEASEBOARD_ANONYMOUS: 'none',
      // Half the default budget: behind the access check (a session read each) a loaded machine spread the heavy-read
      // flood over more than the 10 s window, and 40 never landed in one; the probe tests the refusal, not the size.
      LEASEBOARD_HEAVY_READS_PER_10S: '20',
      LEASEBOARD_OIDC_ISSUER: provider.issuer,
      LEASEBOARD_OIDC_CLIENT_ID: CLIENT_ID,
      LEASEBOARD_OIDC_CLIENT_SECRET: CLIENT_SECRET,
      LEASEBOARD_OIDC_ROLES: 'sre-admins=admin',
      LEASEBOARD_OPERATOR_TOKEN: env.operatorToken,
      LEASEBOARD_SESSION_SECRET: 'attack-oidc-session-secret-0123456789abcdef',
    },
  });
  let serverLog = '';
  server.stdout?.on('data', (chunk: Buffer) => (serverLog += chunk));
  server.stderr?.on('data', (chunk: Buffer) => (serverLog += chunk));
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lb-attack-oidc-'));
  const db = new pg.Client({ connectionString: env.databaseUrl });
  await db.connect();
  const suffix = Date.now().toString(36);
  const tokenFile = (name: string, token: string) => {
    const file = path.join(dir, name);
    writeFileSync(file, token, { mode: 0o600 });
    return file;
  };
  const live = tokenFile('live', await insertServiceToken(db, { name: `attack-none-${suffix}`, scopes: ['intents'], schedulers: ['attack-probe-elsewhere'] }));
  const revoked = tokenFile(
    'revoked',
    await insertServiceToken(db, { name: `attack-none-revoked-${suffix}`, scopes: ['read'], schedulers: ['attack-probe-elsewhere'], revoked: true }),
  );
  await db.end();
  let run: AttackRun;
  try {
    await expect.poll(async () => (await fetch(`${site}/api/healthz`).catch(() => null))?.status ?? 0, { timeout: 60_000 }).toBe(200);
    run = await runAttack([site, '--include-lockout', '--source-address', '127.0.0.4', '--service-token-file', live, '--revoked-token-file', revoked], {
      ...process.env,
      LEASEBOARD_OPERATOR_TOKEN: env.operatorToken,
    });
  } finally {
    server.kill('SIGTERM');
    await provider.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const { output, code } = run;
  await testInfo.attach('attack table', { body: output, contentType: 'text/plain' });
  await testInfo.attach('server log', { body: serverLog, contentType: 'text/plain' });
  console.log(output);
  // Only the archive's probes skip (no archive here).
  expect(missedProbes(output), `missed: ${missedProbes(output).join(' ; ')}`).toEqual([]);
  expect(output).toMatch(/attack: \d+ held, 0 missed, 2 skipped/);
  expect(code, output).toBe(0);
});
