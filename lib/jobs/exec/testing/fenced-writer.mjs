// A command for the exec runner's tests, as a user's program would be: it writes one row to the
// fenced table exec_probe with the epoch from its environment, waits until the file
// `$PROBE_DIR/go-$LEASEBOARD_LEASE-$LEASEBOARD_EPOCH` exists, then writes a second row. A refusal of the fence
// (SQLSTATE LB001) ends it with exit code 5; any other error with 1. Its outcome also goes to the
// file `$PROBE_DIR/result-$LEASEBOARD_LEASE-$LEASEBOARD_EPOCH` (its runner may be paused and not reading its output).
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';

const { LEASEBOARD_LEASE: lease, LEASEBOARD_EPOCH: epoch, LEASEBOARD_OCCURRENCE: occurrence, DATABASE_URL: url, PROBE_DIR: dir } = process.env;
const client = new pg.Client({ connectionString: url });
await client.connect();
const write = (phase) =>
  client.query('INSERT INTO exec_probe (lease, epoch, occurrence, phase) VALUES ($1, $2, $3, $4)', [lease, Number(epoch), occurrence, phase]);
try {
  await write(1);
  console.log(`phase 1 written (epoch ${epoch})`);
  while (!existsSync(path.join(dir, `go-${lease}-${epoch}`))) await new Promise((resolve) => setTimeout(resolve, 50));
  await write(2);
  console.log(`phase 2 written (epoch ${epoch})`);
  writeFileSync(path.join(dir, `result-${lease}-${epoch}`), 'written');
  await client.end();
} catch (error) {
  console.log(`refused: ${error.code} ${error.message}`);
  writeFileSync(path.join(dir, `result-${lease}-${epoch}`), `refused ${error.code}`);
  process.exit(error.code === 'LB001' ? 5 : 1);
}
