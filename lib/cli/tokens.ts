/**
 * `leaseboard tokens list | create | revoke`: service tokens from a shell —
 * the first one before sign-in is set up, and tokens kept as configuration
 * as code. Whoever holds the dashboard's actions login may already change
 * intents and windows directly; this command gives them the same writes as
 * the admins' API (POST/DELETE /api/v1/tokens), audited as `cli` with the
 * person and reason given.
 *
 * Guarantees: a request is checked by the API's own schema before anything
 * is written (exit 2, nothing changed); a token is printed once, on stdout,
 * at its creation, and is never stored or logged (only its salted HMAC is
 * kept); a refusal (a name taken, too many live tokens, no such live token)
 * is exit 2 with its reason. Database: LEASEBOARD_ACTIONS_DATABASE_URL, else
 * DATABASE_URL, else the running demo's operator login.
 */
import type { parseArgs } from 'node:util';
import { createPool } from '../../db/pool';
import { createRefusal, createServiceToken, listServiceTokens, revokeServiceToken, SERVICE_TOKEN_ID } from '../actions/service-token-store';
import { ServiceTokenCreateRequestSchema, ServiceTokenRevokeRequestSchema } from '../api/schemas';
import type { ServiceTokenInfo } from '../api/types';
import { actionsDatabaseUrl } from './running-database';
import { subcommand } from './subcommand';

const USAGE = `usage: leaseboard tokens list [--json]
       leaseboard tokens create --name NAME --scope read|intents|maintenance|reports… (--selector 'team=payments' | --scheduler NAME…) --by WHO --reason WHY
       leaseboard tokens revoke ID --by WHO --reason WHY
A service token (Authorization: Bearer lbs_…) acts with its scopes over the schedulers named or selected; every use is
attributed to its name in the audit. create prints the token once, on stdout, with its details on stderr: keep it in a
secret store. Audited, with WHO and WHY. Database: LEASEBOARD_ACTIONS_DATABASE_URL, else DATABASE_URL, else the running demo's.
Exit codes: 0 done; 2 bad input or a change refused (nothing written).
`;

function fail(message: string): never {
  process.stderr.write(`tokens: ${message}\n`);
  process.exit(2);
}

const OPTIONS = {
  json: { type: 'boolean' },
  name: { type: 'string' },
  scope: { type: 'string', multiple: true },
  selector: { type: 'string' },
  scheduler: { type: 'string', multiple: true },
  by: { type: 'string' },
  reason: { type: 'string' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

const issues = (error: { issues: { message: string }[] }) => error.issues.map((issue) => issue.message).join('; ');

function byOf(values: Values): string {
  const by = values.by?.trim() ?? '';
  if (by.length === 0) fail('--by WHO is required (the audit names who changed the token)');
  return by;
}

/** One line a person reads: id, state, name, scopes, over what, last use. */
function line(t: ServiceTokenInfo): string {
  const over = t.selector !== null ? `selector ${t.selector === '' ? '(every scheduler)' : t.selector}` : (t.schedulers ?? []).join(',');
  const state = t.revokedAt === null ? 'live' : `revoked ${t.revokedAt}`;
  return `${t.id}  ${state}  ${t.name}  ${t.scopes.join(',')}  ${over}  by ${t.createdBy}  last used ${t.lastUsedAt ?? 'never'}`;
}

export async function run(argv: string[]): Promise<void> {
  const { action, values, operand } = subcommand({
    name: 'tokens',
    argv,
    options: OPTIONS,
    actions: ['list', 'create', 'revoke'],
    operand: { action: 'revoke', pattern: SERVICE_TOKEN_ID, message: 'revoke takes one token id, 12 hex characters (leaseboard tokens list)' },
    usage: USAGE,
    fail,
  });
  // Checked before the database is reached: bad input never waits on a connection.
  const by = action === 'list' ? '' : byOf(values);
  const request =
    action === 'create'
      ? ServiceTokenCreateRequestSchema.safeParse({
          name: values.name,
          scopes: values.scope ?? [],
          ...(values.selector === undefined ? {} : { selector: values.selector }),
          ...(values.scheduler === undefined ? {} : { schedulers: values.scheduler }),
          reason: values.reason ?? '',
        })
      : null;
  if (request !== null && !request.success) fail(issues(request.error));
  const revoking = action === 'revoke' ? ServiceTokenRevokeRequestSchema.safeParse({ reason: values.reason ?? '' }) : null;
  if (revoking !== null && !revoking.success) fail(issues(revoking.error));

  const pool = createPool(actionsDatabaseUrl(fail), { applicationName: 'leaseboard-tokens' });
  try {
    if (action === 'list') {
      const tokens = await listServiceTokens(pool);
      if (values.json) console.log(JSON.stringify({ tokens }));
      else console.log(tokens.length === 0 ? 'no service tokens' : tokens.map(line).join('\n'));
    } else if (request?.success) {
      const made = await createServiceToken(pool, request.data, { by, identifiedBy: 'cli' });
      if (made.kind !== 'created') fail(createRefusal(made, request.data.name));
      const { token, ...info } = made.token;
      // The secret alone on stdout (for `$(…)` or a pipe into a secret store); what it is on stderr.
      process.stderr.write(`tokens: created ${line(info)}\n`);
      process.stdout.write(`${token}\n`);
    } else if (revoking?.success && operand !== null) {
      const revoked = await revokeServiceToken(pool, operand, { by, identifiedBy: 'cli', reason: revoking.data.reason });
      if (revoked === null) fail(`no live service token ${operand}`);
      console.log(JSON.stringify(revoked));
    }
  } finally {
    await pool.end();
  }
}
