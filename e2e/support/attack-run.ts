/**
 * `npm run attack` as the attack specs run it: `scripts/attack.ts` from the
 * repository with the given arguments and environment, its whole output kept
 * (the table is attached to the report), and the probes that missed named in
 * the assertion's first line — the gate's summary shows only that line.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

export interface AttackRun {
  output: string;
  code: number | null;
}

export function runAttack(args: string[], env: NodeJS.ProcessEnv): Promise<AttackRun> {
  return new Promise((resolve) => {
    let output = '';
    const run = spawn(process.execPath, ['--import', 'tsx', 'scripts/attack.ts', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env });
    run.stdout.on('data', (chunk: Buffer) => (output += chunk));
    run.stderr.on('data', (chunk: Buffer) => (output += chunk));
    run.once('exit', (code) => resolve({ output, code }));
  });
}

/** The table's rows whose verdict is MISS, each squeezed to one line (`probe | expected | got | MISS`). */
export function missedProbes(output: string): string[] {
  return output
    .split('\n')
    .filter((line) => /\bMISS\s*$/.test(line))
    .map((line) =>
      line
        .split('|')
        .map((cell) => cell.trim())
        .join(' | '),
    );
}
