// A command as a person runs it from a shell: a fresh Node process from the repository's root, whose environment
// holds PATH, HOME, NODE_ENV=test and what the case gives — none of the test runner's own settings.
import { spawnSync } from 'node:child_process';
import { ROOT } from '../../child/json-line-process';

export interface CommandRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node NODE_ARGS…` to its end (at most a minute). */
export function runCommand(nodeArgs: string[], env: Record<string, string>): CommandRun {
  const result = spawnSync(process.execPath, nodeArgs, {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'test', ...env },
  });
  return { status: result.status, stderr: result.stderr, stdout: result.stdout };
}
