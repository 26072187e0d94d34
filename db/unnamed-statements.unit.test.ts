// Behind a pooler in transaction mode a named prepared statement does not outlive its transaction's server
// connection (PgBouncer 1.18: 42P05 "already exists", 26000 "does not exist"), so the product sends none:
// no query config with a `name`, no drizzle `.prepare(name)` (docs/operations.md, Behind PgBouncer).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '..');
const NAMED = [/\bname\s*(:\s*[^,\n]+)?,\s*text\s*[:,}]/, /\.prepare\(\s*['"`]/];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' || entry.name === 'node_modules' ? [] : sources(file);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

const named = (text: string) => NAMED.some((pattern) => pattern.test(text));

describe('statements a pooler can carry', () => {
  it('finds a named statement in every shape it is written', () => {
    expect(named(`db.query({ name: 'lease_renew', text: RENEW_SQL, values })`)).toBe(true);
    expect(named(`db.query({\n  name: 'lease_renew',\n  text: RENEW_SQL,\n})`)).toBe(true);
    expect(named(`db.query({ name, text, values, rowMode: 'array' })`)).toBe(true);
    expect(named(`db.select().from(leases).prepare('read_leases')`)).toBe(true);
    expect(named(`db.query({ text: RENEW_SQL, values: [name] })`)).toBe(false);
    expect(named(`defineJob({ name: 'squares', everyMs: 60_000 })`)).toBe(false);
  });

  it('lib/, db/ and examples/ send none', () => {
    const offenders = [...sources(path.join(ROOT, 'lib')), ...sources(path.join(ROOT, 'db')), ...sources(path.join(ROOT, 'examples'))]
      .filter((file) => named(readFileSync(file, 'utf8')))
      .map((file) => path.relative(ROOT, file));
    expect(offenders).toEqual([]);
  });
});
