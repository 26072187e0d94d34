/**
 * `npm run intent -- --lease NAME (--disable | --enable) --by WHO --reason WHY`
 * The operator's explicit choice for one scheduler, audited. Automation never
 * calls this; only a person does. Database: DATABASE_URL, else the running demo's.
 * Bad input: a message and exit code 2; nothing is written.
 */
import { parseArgs } from 'node:util';
import { createPool } from '../db/pool';
import { changeIntent, intentChangeSchema, leaseNameSchema } from '../lib/lease';
import { runningDatabaseUrl } from '../lib/cli/running-database';

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
    const result = await changeIntent(pool, lease.data, change.data, { identifiedBy: 'cli' });
    switch (result.kind) {
      case 'changed':
        console.log(JSON.stringify({ lease: lease.data, ...result.intent, at: result.intent.at.toISOString(), from: result.from ? 'disabled' : 'enabled' }));
        break;
      case 'unchanged':
        console.log(
          `intent: ${lease.data} is already ${result.current.disabled ? 'disabled' : 'enabled'} (by ${result.current.by}: ${result.current.reason}); nothing recorded`,
        );
        break;
      case 'unknown_scheduler':
      case 'conflict':
        fail('the intent changed meanwhile; look again and retry');
        break;
      default: {
        const unreachable: never = result;
        throw new Error(`unexpected intent result ${JSON.stringify(unreachable)}`);
      }
    }
  } finally {
    await pool.end();
  }
}

void main();
