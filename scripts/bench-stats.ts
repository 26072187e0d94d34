/**
 * Shared by the bench scripts: sample timing, percentiles and how figures
 * are printed. Benches print figures and ratios against a baseline measured
 * in the same run; they are never part of the tests.
 */

export interface Stats {
  n: number;
  min: number;
  p50: number;
  p99: number;
  max: number;
}

export function stats(samples: number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)]!;
  return { n: s.length, min: s[0]!, p50: q(0.5), p99: q(0.99), max: s[s.length - 1]! };
}

export const fmt = (x: Stats) => `p50 ${x.p50.toFixed(1)} ms · p99 ${x.p99.toFixed(1)} ms · min ${x.min.toFixed(1)} · max ${x.max.toFixed(1)} (n=${x.n})`;

export const verdict = (ok: boolean) => (ok ? 'MET' : 'MISSED');

/** A positive integer from the environment, else `fallback`. */
export const envInt = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
};

/** With `settle`, collect garbage left by earlier phases first (needs --expose-gc), so a sample pays only for its own work. */
export async function time(n: number, fn: () => Promise<unknown> | unknown, settle = false): Promise<number[]> {
  const out: number[] = [];
  const gc = (globalThis as { gc?: () => void }).gc;
  for (let i = 0; i < n; i++) {
    if (settle && gc) gc();
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}

/**
 * Like `time`, with this process's CPU time per sample beside the wall time:
 * on a machine shared with other work, wall time includes waiting for a core.
 */
export function timeWithCpu(n: number, fn: () => unknown, settle = false): { wall: number[]; cpu: number[] } {
  const wall: number[] = [];
  const cpu: number[] = [];
  const gc = (globalThis as { gc?: () => void }).gc;
  for (let i = 0; i < n; i++) {
    if (settle && gc) gc();
    const c = process.cpuUsage();
    const t = performance.now();
    fn();
    wall.push(performance.now() - t);
    const used = process.cpuUsage(c);
    cpu.push((used.user + used.system) / 1000);
  }
  return { wall, cpu };
}
