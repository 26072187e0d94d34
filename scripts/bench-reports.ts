/**
 * `npm run bench:reports [-- --schedulers N --seconds S --connections C]` —
 * progress reports over HTTP (POST /api/v1/schedulers/{name}/reports,
 * lib/ingest) into the real dashboard server (production build), and what
 * they cost the list. Not a test: prints figures and exits 0.
 *
 * A dedicated database with N schedulers (default 1,000; scripts/bench-status-data.ts),
 * a report token per reporting scheduler, and a fresh server. First the list
 * (a page of 100) is polled alone by one client for S seconds — the baseline —
 * then again while C connections (default 64), each reporting for its own
 * scheduler with its own token and seq 1, 2, 3 …, post as fast as they are
 * answered. The per-token rate limit is raised to its ceiling for the bench
 * (LEASEBOARD_REPORTS_PER_TOKEN_PER_10S=100000), so the figure is the ingest's,
 * not the limiter's.
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { createPool } from '../db/pool';
import { createTestDatabase } from '../db/testing/test-database';
import { mintReportToken } from '../lib/ingest/tokens';
import { seed } from './bench-status-data';
import { ensureBuild, startServer } from './bench-server';

const log = (line: string) => process.stdout.write(`${line}\n`);

function options() {
  const { values } = parseArgs({ options: { schedulers: { type: 'string' }, seconds: { type: 'string' }, connections: { type: 'string' } }, strict: true });
  const int = (value: string | undefined, fallback: number) => {
    const v = Number(value);
    return Number.isInteger(v) && v > 0 ? v : fallback;
  };
  return { schedulers: int(values.schedulers, 1_000), seconds: int(values.seconds, 10), connections: int(values.connections, 64) };
}

const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!);
const summary = (latencies: number[]) => {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { n: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
};

/** Polls `url` on one connection until `until` resolves; latencies in ms. */
async function poll(url: string, until: Promise<unknown>): Promise<number[]> {
  let done = false;
  void until.then(() => (done = true));
  const latencies: number[] = [];
  while (!done) {
    const t = performance.now();
    await (await fetch(url)).arrayBuffer();
    latencies.push(performance.now() - t);
  }
  return latencies;
}

async function main(): Promise<void> {
  const opts = options();
  const load = () =>
    os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' / ');
  log(`bench:reports — ${opts.schedulers.toLocaleString('en')} schedulers, ${opts.connections} reporting connections, ${opts.seconds} s per figure`);
  log(`host: ${os.cpus().length} CPUs, load average ${load()} (the load generator shares the machine with the server)`);
  const basePath = ensureBuild(log);
  const database = await createTestDatabase(log);
  let server: Awaited<ReturnType<typeof startServer>> | null = null;
  try {
    const pool = createPool(database.url, { applicationName: 'leaseboard-bench-reports', statementTimeoutMs: 600_000 });
    await seed(pool, { schedulers: opts.schedulers, reportsPerScheduler: 60 }, () => {});
    const { rows } = await pool.query<{ name: string; epoch: number; last_seq: number | null }>(
      `SELECT l.name, l.epoch::float8 AS epoch, s.last_seq FROM leases l LEFT JOIN progress_summaries s ON s.lease = l.name AND s.epoch = l.epoch
       WHERE l.released_at IS NULL ORDER BY l.name LIMIT $1`,
      [opts.connections],
    );
    if (rows.length < opts.connections) throw new Error(`bench:reports: only ${rows.length} held leases for ${opts.connections} connections`);
    const reporters = [];
    for (const row of rows) {
      const minted = mintReportToken();
      await pool.query(`INSERT INTO report_tokens (id, scheduler, secret_sha256, created_by, created_at) VALUES ($1, $2, $3, 'bench', clock_timestamp())`, [
        minted.id,
        row.name,
        minted.secretSha256,
      ]);
      reporters.push({ name: row.name, epoch: row.epoch, seq: row.last_seq ?? 0, token: minted.token });
    }
    await pool.end();
    server = await startServer(database.url, basePath, { LEASEBOARD_REPORTS_PER_TOKEN_PER_10S: '100000' });
    const listUrl = `${server.url}/api/v1/schedulers?limit=100`;
    for (let i = 0; i < 20; i++) await (await fetch(listUrl)).arrayBuffer();

    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const alone = summary(await poll(listUrl, sleep(opts.seconds * 1000)));

    const statuses = new Map<number, number>();
    const accepted: number[] = [];
    const deadline = performance.now() + opts.seconds * 1000;
    const reporting = Promise.all(
      reporters.map(async (r) => {
        while (performance.now() < deadline) {
          const t = performance.now();
          const response = await fetch(`${server!.url}/api/v1/schedulers/${r.name}/reports`, {
            method: 'POST',
            headers: { authorization: `Bearer ${r.token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ epoch: r.epoch, seq: r.seq + 1, occurrence: null, cursor: null, reportEveryMs: 2000 }),
          });
          await response.arrayBuffer();
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          if (response.status === 200) {
            r.seq++;
            accepted.push(performance.now() - t);
          }
        }
      }),
    );
    const underLoad = summary(await poll(listUrl, reporting));
    const reports = summary(accepted);
    const codes = [...statuses.entries()].map(([code, n]) => `${code}×${n}`).join(' ');
    log(
      `\nreports accepted: ${Math.round(reports.n / opts.seconds).toLocaleString('en')}/s (p50 ${reports.p50.toFixed(1)} ms, p99 ${reports.p99.toFixed(1)} ms); answers: ${codes}`,
    );
    log(`list (page of 100), one poller: alone p50 ${alone.p50.toFixed(1)} · p99 ${alone.p99.toFixed(1)} ms (${alone.n} reads)`);
    log(
      `                          under the reports p50 ${underLoad.p50.toFixed(1)} · p99 ${underLoad.p99.toFixed(1)} ms (${underLoad.n} reads) — ${(underLoad.p99 / alone.p99).toFixed(2)}× the p99 alone`,
    );
    log(`host load average after: ${load()}`);
  } finally {
    server?.stop();
    await database.drop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:reports failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
