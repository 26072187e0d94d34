/**
 * `npm run attack` against the suite's real server: every probe of the security review
 * and the usual suspects must hold. Run from 127.0.0.3 (the server listens on
 * loopback and sees that address as the client), so the lockout probes —
 * failed sign-ins, heavy reads — spend only that address's budgets, never the
 * browser's in the other specs. The archive's probes run against an archive
 * process of the spec's own. The table is attached to the report.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ArchiveProcess } from '../examples/demo/archive/process';
import { expect, test } from './fixtures/test';

const ROOT = path.resolve(__dirname, '..');

test('npm run attack holds against the dashboard: every probe as expected, none missed', async ({ env }, testInfo) => {
  test.setTimeout(240_000);
  const archive = await ArchiveProcess.start();
  let output = '';
  let code: number | null;
  try {
    // The token in the environment, never on the command line (every user of the machine reads those).
    const args = ['--import', 'tsx', 'scripts/attack.ts', env.directUrl, '--include-lockout'];
    const run = spawn(process.execPath, [...args, '--archive', archive.url, '--source-address', '127.0.0.3'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LEASEBOARD_OPERATOR_TOKEN: env.operatorToken },
    });
    run.stdout.on('data', (chunk: Buffer) => (output += chunk));
    run.stderr.on('data', (chunk: Buffer) => (output += chunk));
    code = await new Promise<number | null>((resolve) => run.once('exit', resolve));
  } finally {
    await archive.process.stop();
  }
  await testInfo.attach('attack table', { body: output, contentType: 'text/plain' });
  console.log(output);
  expect(output).toMatch(/attack: \d+ held, 0 missed, 0 skipped/);
  expect(code, output).toBe(0);
});
