/**
 * Child of bench:status: projects the dumped reads of 10,000 schedulers
 * `runs` times, bundled the way the server ships (no tsx transform), with the
 * heap settled before each sample. Prints one JSON line of sample ms.
 */
import { readFileSync } from 'node:fs';
import { projectAll } from '../lib/server/live/list';
import type { SchedulerRead } from '../lib/server/live/facts';

const [file, runs = '50'] = process.argv.slice(2);
const { now, reads } = JSON.parse(readFileSync(file!, 'utf8')) as { now: string; reads: SchedulerRead[] };
const gc = (globalThis as { gc?: () => void }).gc;
const samples: number[] = [];
for (let i = 0; i < Number(runs); i++) {
  gc?.();
  const started = performance.now();
  projectAll(reads, now);
  samples.push(performance.now() - started);
}
process.stdout.write(`${JSON.stringify(samples)}\n`);
