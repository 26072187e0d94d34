/**
 * Runs the embedded PostgreSQL in its own process group for the demo, so a
 * terminal's Ctrl-C (SIGINT to the whole foreground group) does not stop the
 * database before the schedulers have released their leases. Prints one JSON
 * line `{ "url": … }` when ready (to its parent only; never logged). Stops the
 * database on SIGTERM, or when its stdin closes (the parent is gone), so it
 * never outlives the demo: a fast shutdown, and an immediate one (SIGQUIT to
 * the postmaster) if that has not finished within STOP_DEADLINE_MS. A closed
 * stdout or stderr is ignored (this module sits below lib/, so it does here
 * what lib/child/stdio.ts does for the others): the process must live to stop
 * its postmaster, which would outlive it otherwise.
 */
import { resolveDatabase } from './database';

const STOP_DEADLINE_MS = 5_000;

async function main() {
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
  const database = await resolveDatabase((line) => process.stderr.write(`${line}\n`));
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => {
      database.kill();
      process.exit(1);
    }, STOP_DEADLINE_MS);
    await database.stop();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => {}); // the terminal's Ctrl-C is the parent's to handle
  process.stdin.on('end', () => void stop());
  process.stdin.on('close', () => void stop());
  process.stdin.resume();
  process.stdout.write(`${JSON.stringify({ url: database.url, kind: database.kind })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`database: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
