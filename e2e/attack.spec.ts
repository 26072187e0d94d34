/**
 * `npm run attack` against the suite's real server: every probe of the security review
 * and the usual suspects must hold. Run from 127.0.0.3 (the server listens on
 * loopback and sees that address as the client), so the lockout probes —
 * failed sign-ins, heavy reads — spend only that address's budgets, never the
 * browser's in the other specs. The archive's probes run against an archive
 * process of the spec's own. The service-token probes get a live intents-only token over another
 * scheduler, and a revoked one, in files (never on the command line). The table is attached to the report.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ArchiveProcess } from '../examples/demo/archive/process';
import { insertServiceToken } from '../lib/auth/testing/service-token-rows';
import { expect, test } from './fixtures/test';
import { type AttackRun, missedProbes, runAttack } from './support/attack-run';

test('npm run attack holds against the dashboard: every probe as expected, none missed', async ({ env }, testInfo) => {
  test.setTimeout(240_000);
  const archive = await ArchiveProcess.start();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lb-attack-'));
  const db = new pg.Client({ connectionString: env.databaseUrl });
  await db.connect();
  const suffix = Date.now().toString(36);
  const tokenFile = (name: string, token: string) => {
    const file = path.join(dir, name);
    writeFileSync(file, token, { mode: 0o600 });
    return file;
  };
  const live = tokenFile(
    'live',
    await insertServiceToken(db, { name: `attack-intents-${suffix}`, scopes: ['intents'], schedulers: ['attack-probe-elsewhere'] }),
  );
  const revoked = tokenFile(
    'revoked',
    await insertServiceToken(db, { name: `attack-revoked-${suffix}`, scopes: ['read', 'intents'], schedulers: ['attack-probe-elsewhere'], revoked: true }),
  );
  await db.end();
  let run: AttackRun;
  try {
    // The tokens in the environment and in files, never on the command line (every user of the machine reads those).
    run = await runAttack(
      [
        env.directUrl,
        '--include-lockout',
        '--service-token-file',
        live,
        '--revoked-token-file',
        revoked,
        '--archive',
        archive.url,
        '--source-address',
        '127.0.0.3',
      ],
      { ...process.env, LEASEBOARD_OPERATOR_TOKEN: env.operatorToken },
    );
  } finally {
    await archive.process.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const { output, code } = run;
  await testInfo.attach('attack table', { body: output, contentType: 'text/plain' });
  console.log(output);
  expect(missedProbes(output), `missed: ${missedProbes(output).join(' ; ')}`).toEqual([]);
  expect(output).toMatch(/attack: \d+ held, 0 missed, 0 skipped/);
  expect(code, output).toBe(0);
});
