/**
 * `leaseboard intent` and `npm run intent -- (--lease NAME | --selector S) (--disable | --enable) --by WHO --reason WHY`
 * The operator's explicit choice for one scheduler, or for every scheduler a
 * label selector matches (one reason for all), audited. Automation never
 * calls this; only a person does. Database: LEASEBOARD_ACTIONS_DATABASE_URL,
 * else DATABASE_URL, else the running demo's.
 * Bad input (a malformed selector, one that matches nothing): a message and
 * exit code 2; nothing is written.
 */
import { parseArgs } from 'node:util';
import { createPool } from '../../db/pool';
import { formatSelector, parseSelector, type Selector } from '../limits/selector';
import { changeIntent, changeIntentBySelector, intentChangeSchema, leaseNameSchema } from '../lease';
import { actionsDatabaseUrl } from './running-database';

function fail(message: string): never {
  process.stderr.write(`intent: ${message}\n`);
  process.exit(2);
}

type Target = { kind: 'one'; lease: string } | { kind: 'selector'; selector: Selector };

function targetOf(values: { lease?: string; selector?: string }): Target {
  if ((values.lease === undefined) === (values.selector === undefined)) fail('say exactly one of --lease NAME or --selector S');
  if (values.selector !== undefined) {
    const parsed = parseSelector(values.selector);
    if (!parsed.ok) fail(parsed.message);
    return { kind: 'selector', selector: parsed.selector };
  }
  const lease = leaseNameSchema.safeParse(values.lease);
  if (!lease.success) fail(`--lease: ${lease.error.issues[0]?.message}`);
  return { kind: 'one', lease: lease.data };
}

/** Records one intent change (for one scheduler or a selector's) from the command line `argv`. */
export async function intent(argv: string[]): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        lease: { type: 'string' },
        selector: { type: 'string' },
        disable: { type: 'boolean' },
        enable: { type: 'boolean' },
        by: { type: 'string' },
        reason: { type: 'string' },
      },
      strict: true,
    }));
  } catch (error) {
    fail((error as Error).message);
  }
  const target = targetOf(values);
  if (values.disable === values.enable) fail('say exactly one of --disable or --enable');
  const change = intentChangeSchema.safeParse({ disabled: Boolean(values.disable), by: values.by ?? '', reason: values.reason ?? '' });
  if (!change.success) fail(change.error.issues.map((issue) => issue.message).join('; '));
  const pool = createPool(actionsDatabaseUrl(fail), { applicationName: 'leaseboard-intent' });
  try {
    if (target.kind === 'selector') await bySelector(pool, target.selector, change.data);
    else await forOne(pool, target.lease, change.data);
  } finally {
    await pool.end();
  }
}

type Change = { disabled: boolean; by: string; reason: string };
const stateOf = (disabled: boolean) => (disabled ? 'disabled' : 'enabled');

async function forOne(pool: ReturnType<typeof createPool>, lease: string, change: Change): Promise<void> {
  const result = await changeIntent(pool, lease, change, { identifiedBy: 'cli' });
  switch (result.kind) {
    case 'changed':
      console.log(JSON.stringify({ lease, ...result.intent, at: result.intent.at.toISOString(), from: result.from ? 'disabled' : 'enabled' }));
      break;
    case 'unchanged':
      console.log(`intent: ${lease} is already ${stateOf(result.current.disabled)} (by ${result.current.by}: ${result.current.reason}); nothing recorded`);
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
}

/** As POST /api/v1/bulk/intent: every match that is not already so changes, each audited, in one transaction. */
async function bySelector(pool: ReturnType<typeof createPool>, selector: Selector, change: Change): Promise<void> {
  const shown = formatSelector(selector);
  const result = await changeIntentBySelector(pool, { selector, ...change, identifiedBy: 'cli' });
  switch (result.kind) {
    case 'changed':
      console.log(
        JSON.stringify({
          selector: shown,
          to: stateOf(change.disabled),
          changed: result.changed,
          unchanged: result.unchanged,
          by: change.by,
          at: result.at.toISOString(),
        }),
      );
      break;
    case 'unchanged':
      console.log(`intent: every scheduler matching ${shown} is already ${stateOf(change.disabled)} (${result.unchanged.length}); nothing recorded`);
      break;
    case 'nothing_matched':
      fail(`--selector ${shown} matches no scheduler; nothing changed`);
      break;
    default: {
      const unreachable: never = result;
      throw new Error(`unexpected bulk intent result ${JSON.stringify(unreachable)}`);
    }
  }
}
