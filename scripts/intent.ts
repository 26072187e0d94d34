/**
 * `npm run intent -- --lease NAME (--disable | --enable) --by WHO --reason WHY`
 * The operator's explicit choice for one scheduler, audited. Automation never
 * calls this; only a person does. Database: DATABASE_URL, else the running demo's.
 * Bad input: a message and exit code 2; nothing is written.
 */
import { parseArgs } from 'node:util';
import { createPool } from '../db/pool';
import { leaseNameSchema } from '../lib/lease/config';
import { intentChangeSchema, setIntent } from '../lib/lease/intent';
import { runningDatabaseUrl } from '../lib/scheduler/running-database';

function fail(message: string): never {
  process.stderr.write(`intent: ${message}\n`);
  process.exit(2);
}

async function main() {
  let values;
  try {
    ({ values } = parseArgs({
      options: { lease: { type: 'string' }, disable: { type: 'boolean' }, enable: { type: 'boolean' }, by: { type: 'string' }, reason: { type: 'string' } },
      strict: true,
    }));
  } catch (error) {
    fail((error as Error).message);
  }
  const lease = leaseNameSchema.safeParse(values.lease ?? '');
  if (!lease.success) fail(`--lease: ${lease.error.issues[0]?.message}`);
  if (values.disable === values.enable) fail('say exactly one of --disable or --enable');
  const change = intentChangeSchema.safeParse({ disabled: Boolean(values.disable), by: values.by ?? '', reason: values.reason ?? '' });
  if (!change.success) fail(change.error.issues.map((issue) => issue.message).join('; '));
  const url = process.env.DATABASE_URL ?? runningDatabaseUrl();
  if (!url) fail('no database: set DATABASE_URL, or start `npm run demo` first');
  const pool = createPool(url, { applicationName: 'leaseboard-intent' });
  try {
    const intent = await setIntent(pool, lease.data, change.data);
    console.log(JSON.stringify({ lease: lease.data, ...intent, at: intent.at.toISOString() }));
  } finally {
    await pool.end();
  }
}

void main();
