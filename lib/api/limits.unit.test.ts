// One list, three forms: the contract's, the schema's, and the audit tables' CHECK as the migrations leave them (db/schema.sql).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { IDENTIFIED_BY as IN_SCHEMA } from '../../db/schema';
import { IDENTIFIED_BY } from '../limits';

describe('how an audited identity was established', () => {
  it('is listed the same in the contract, the drizzle schema and every CHECK of the migration', () => {
    expect([...IN_SCHEMA]).toEqual([...IDENTIFIED_BY]);
    const sql = readFileSync(path.join(__dirname, '../../db/schema.sql'), 'utf8');
    const checks = [...sql.matchAll(/identified_by_check CHECK \(\(identified_by = ANY \(ARRAY\[([^\]]*)\]/g)].map((match) =>
      match[1]!.split(',').map((v) => v.trim().replace(/'|::text/g, '')),
    );
    expect(checks).toHaveLength(3);
    for (const values of checks) expect(values).toEqual([...IDENTIFIED_BY]);
  });
});
