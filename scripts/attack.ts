/**
 * `npm run attack -- URL [--operator-token-file FILE] [--service-token-file FILE] [--revoked-token-file FILE] [--archive URL] [--include-lockout [--heavy-reads-per-10s N]] [--source-address A]`
 *
 * Points the security review's probes, and the usual suspects (oversized headers, slow
 * bodies, path traversal, malformed percent-encoding, JSON bombs, cross-site
 * writes), at a running Leaseboard dashboard — your own deployment, or the
 * demo — and prints a table: probe, expected, got. Exits 1 if any probe
 * missed, 2 on bad options; skipped probes (and why) are listed, never
 * counted as passed.
 *
 * Safe to point at a deployment people use (scripts/attack/probes.ts): no
 * probe changes a scheduler, an alert or an audit row. Options:
 * - `--operator-token-file FILE` (or LEASEBOARD_OPERATOR_TOKEN in the
 *   environment): also sign in (once per probe that needs it) to check the
 *   cookie's flags, that a signed-out cookie is dead, and cross-site writes
 *   with a live session. Each sign-in is an ordinary session.
 *   `--operator-token T` still works, with a warning: every user of the
 *   machine can read a command line (`ps`).
 * - `--service-token-file FILE`: a live service token with the intents scope
 *   only, over schedulers that do not include the probe's made-up one: it
 *   must be refused outside them (403, nothing changed) and for reads (403).
 * - `--revoked-token-file FILE`: a revoked service token: it must get 401.
 * - `--include-lockout`: also probe the per-client limits — this client then
 *   cannot sign in for 10 minutes, and its heavy reads wait 10 s.
 *   `--heavy-reads-per-10s N`: the target's heavy-read budget when it is not
 *   the default (LEASEBOARD_HEAVY_READS_PER_10S); its probes send 20 more.
 * - `--archive URL`: also probe the archive service.
 * - `--source-address A`: connect from this local address (a lockout then
 *   hits only it; e.g. 127.0.0.3 against a dashboard on loopback).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { SETTINGS, urlPasswordRefusal } from '../lib/config';
import { type Context, PROBES, type Verdict } from './attack/probes';
import { basePath, send } from './attack/wire';

function fail(message: string): never {
  process.stderr.write(`attack: ${message}\n`);
  process.exit(2);
}

function parse(argv: string[]): Context {
  let parsed: ReturnType<typeof parseArgs<{ options: Record<string, { type: 'string' | 'boolean' }>; allowPositionals: true; strict: true }>>;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        'operator-token': { type: 'string' },
        'operator-token-file': { type: 'string' },
        'service-token-file': { type: 'string' },
        'revoked-token-file': { type: 'string' },
        archive: { type: 'string' },
        'include-lockout': { type: 'boolean' },
        'heavy-reads-per-10s': { type: 'string' },
        'source-address': { type: 'string' },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    fail((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1) {
    fail(
      'usage: npm run attack -- URL [--operator-token-file FILE] [--service-token-file FILE] [--revoked-token-file FILE] [--archive URL] [--include-lockout [--heavy-reads-per-10s N]] [--source-address A]',
    );
  }
  const url = (raw: string, what: string) => {
    const refusal = urlPasswordRefusal(what, raw, 'the probes need none: they send what an outsider can');
    if (refusal !== null) fail(refusal);
    try {
      const parsedUrl = new URL(raw);
      if (parsedUrl.protocol !== 'http:' && parsedUrl.protocol !== 'https:') throw new Error('not http(s)');
      return parsedUrl;
    } catch {
      fail(`${what}: an http(s) URL, got ${JSON.stringify(raw)}`);
    }
  };
  const sourceAddress = values['source-address'] as string | undefined;
  return {
    target: { url: url(positionals[0]!, 'URL'), sourceAddress },
    operatorToken: operatorToken(values['operator-token'] as string | undefined, values['operator-token-file'] as string | undefined),
    serviceToken: tokenFile('--service-token-file', values['service-token-file'] as string | undefined),
    revokedToken: tokenFile('--revoked-token-file', values['revoked-token-file'] as string | undefined),
    includeLockout: values['include-lockout'] === true,
    heavyReadBudget: heavyReadBudget(values['heavy-reads-per-10s'] as string | undefined),
    signInRequired: false,
    archive: values.archive === undefined ? null : { url: url(values.archive as string, '--archive'), sourceAddress },
  };
}

/** The target's heavy reads per client per 10 s: the option's whole number within the setting's range, else the setting's default. */
function heavyReadBudget(raw: string | undefined): number {
  const setting = SETTINGS.heavyReadsPer10s;
  if (raw === undefined) return setting.default;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < setting.min || value > setting.max) {
    fail(`--heavy-reads-per-10s: a whole number from ${setting.min} to ${setting.max} (the target's ${setting.env}), got ${JSON.stringify(raw)}`);
  }
  return value;
}

/** A secret read from a file named by `option` (never a secret on the command line), or null without the option. */
function tokenFile(option: string, file: string | undefined): string | null {
  if (file === undefined) return null;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    fail(`${option}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const token = text.trim();
  if (token === '') fail(`${option}: ${file} is empty`);
  return token;
}

/** The operator token: from a file, the environment, or (with a warning) the command line. */
function operatorToken(flag: string | undefined, file: string | undefined): string | null {
  if (flag !== undefined && file !== undefined) fail('one of --operator-token, --operator-token-file');
  if (file !== undefined) return tokenFile('--operator-token-file', file);
  if (flag !== undefined) {
    process.stderr.write(
      'attack: warning: --operator-token puts the token on the command line, where every user of this machine reads it (ps); use --operator-token-file FILE or LEASEBOARD_OPERATOR_TOKEN\n',
    );
    return flag;
  }
  return process.env.LEASEBOARD_OPERATOR_TOKEN?.trim() || null;
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, column) => Math.min(60, Math.max(...rows.map((row) => row[column]!.length))));
  const line = (row: string[]) => row.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ');
  return [line(rows[0]!), widths.map((width) => '-'.repeat(width)).join('-|-'), ...rows.slice(1).map(line)].join('\n');
}

/** Whether the target refuses reading without an identity (LEASEBOARD_ANONYMOUS=none): its list answers 401 unauthorized. */
async function signInRequired(context: Context): Promise<boolean> {
  const answer = await send(context.target, {
    method: 'GET',
    path: `${basePath(context.target)}/api/v1/schedulers`,
    headers: { host: context.target.url.host },
    timeoutMs: 10_000,
  });
  return answer.status === 401 && answer.body.includes('"unauthorized"');
}

async function main() {
  const context = parse(process.argv.slice(2));
  context.signInRequired = await signInRequired(context);
  if (context.signInRequired) process.stdout.write('attack: the target refuses anonymous reading (LEASEBOARD_ANONYMOUS=none)\n');
  process.stdout.write(`attack: ${PROBES.length} probes against ${context.target.url.href}${context.archive ? ` and ${context.archive.url.href}` : ''}\n\n`);
  const rows = [['probe', 'expected', 'got', 'verdict']];
  let missed = 0;
  let skipped = 0;
  for (const probe of PROBES) {
    let verdict: Verdict;
    try {
      verdict = await probe.run(context);
    } catch (error) {
      verdict = { expected: 'an answer', got: `probe failed: ${error instanceof Error ? error.message : String(error)}`, ok: false };
    }
    if ('skipped' in verdict) {
      skipped++;
      rows.push([probe.name, '—', verdict.skipped, 'skipped']);
      continue;
    }
    if (!verdict.ok) missed++;
    rows.push([probe.name, verdict.expected, verdict.got, verdict.ok ? 'ok' : 'MISS']);
  }
  process.stdout.write(`${table(rows)}\n\nattack: ${PROBES.length - missed - skipped} held, ${missed} missed, ${skipped} skipped\n`);
  process.exit(missed === 0 ? 0 : 1);
}

void main();
