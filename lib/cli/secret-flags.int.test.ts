// Secrets on command lines are visible to every user of the machine (`ps`, /proc/PID/cmdline): real
// processes of each command that takes one. A URL with a password in it is refused, naming where the
// secret goes instead; the operator token has a file and an environment alternative, and on the command
// line it still works, with a warning (scripts/attack.ts). Nothing here reaches a server: each refusal comes first.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../child/json-line-process';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lb-secret-flags-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(script: string, args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'test', ...env },
  });
  return { status: result.status, stderr: result.stderr, stdout: result.stdout };
}

describe('secrets on command lines', () => {
  it('npm run attack refuses a password inside the target or archive URL, naming the alternative', () => {
    for (const args of [['http://ops:hunter2@127.0.0.1:9/'], ['http://127.0.0.1:9/', '--archive', 'http://w:hunter2@127.0.0.1:9/']]) {
      const answer = run('scripts/attack.ts', args);
      expect(answer.status, args.join(' ')).toBe(2);
      expect(answer.stderr).toMatch(/password.*command line/);
      expect(answer.stderr).not.toContain('hunter2');
    }
  });

  it('npm run attack takes the operator token from --operator-token-file (or LEASEBOARD_OPERATOR_TOKEN): a missing or empty file, or both ways at once, is refused', () => {
    const missing = run('scripts/attack.ts', ['http://127.0.0.1:9/', '--operator-token-file', path.join(dir, 'absent')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/--operator-token-file: cannot read/);
    const empty = path.join(dir, 'empty');
    writeFileSync(empty, '\n');
    expect(run('scripts/attack.ts', ['http://127.0.0.1:9/', '--operator-token-file', empty]).stderr).toMatch(/--operator-token-file: .*empty/);
    const both = run('scripts/attack.ts', ['http://127.0.0.1:9/', '--operator-token=abc', '--operator-token-file', empty]);
    expect(both.status).toBe(2);
    expect(both.stderr).toMatch(/one of --operator-token, --operator-token-file/);
  });

  it('npm run alerts -- alertmanager-config refuses a webhook URL with a password in it', () => {
    const answer = run('scripts/alerts.ts', ['alertmanager-config', '--webhook', 'https://bot:hunter2@hooks.example.org/leaseboard']);
    expect(answer.status).toBe(2);
    expect(answer.stderr).toMatch(/--webhook: .*password.*command line/);
    expect(answer.stdout).not.toContain('hunter2');
  });

  it('a scheduler program refuses a job flag whose URL carries a password (the demo’s --archive-url)', () => {
    const answer = run('examples/demo/scheduler.ts', ['--job', 'retention-planner', '--archive-url', 'http://w:hunter2@127.0.0.1:9/'], {
      DATABASE_URL: 'postgres://nobody@127.0.0.1:9/none',
    });
    expect(answer.status).toBe(2);
    expect(answer.stderr).toMatch(/--archive-url: .*password.*command line/);
  });
});
