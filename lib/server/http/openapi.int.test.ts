// The OpenAPI document describes exactly the routes, and real responses
// conform to its schemas (a small JSON Schema subset checker: type, enum,
// required, properties, items, oneOf, $ref).
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueLease, usePool } from '../../../db/testing/pools';
import { detailRoute, healthzRoute, historyRoute, listRoute } from './handlers';
import { openApiDocument } from './openapi';
import { SCHEMAS } from './openapi-schemas';
import { acquire, register, reporter, serviceOn } from '../testing/seed';

type Schema = Record<string, unknown>;

function violations(value: unknown, schema: Schema, at: string): string[] {
  if (typeof schema.$ref === 'string') return violations(value, SCHEMAS[schema.$ref.split('/').pop() as keyof typeof SCHEMAS] as Schema, at);
  if (Array.isArray(schema.oneOf)) {
    const ok = schema.oneOf.some((s) => violations(value, s as Schema, at).length === 0);
    return ok ? [] : [`${at}: matches no alternative`];
  }
  const type = schema.type;
  const is: Record<string, (v: unknown) => boolean> = {
    string: (v) => typeof v === 'string',
    integer: (v) => Number.isInteger(v),
    number: (v) => typeof v === 'number',
    boolean: (v) => typeof v === 'boolean',
    null: (v) => v === null,
    object: (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
    array: Array.isArray,
  };
  if (typeof type === 'string' && !is[type]!(value)) return [`${at}: expected ${type}, got ${JSON.stringify(value)?.slice(0, 60)}`];
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) return [`${at}: ${String(value)} not in enum`];
  const out: string[] = [];
  if (type === 'object') {
    const o = value as Record<string, unknown>;
    for (const key of (schema.required as string[] | undefined) ?? []) if (!(key in o)) out.push(`${at}.${key}: missing`);
    for (const [key, s] of Object.entries((schema.properties as Record<string, Schema> | undefined) ?? {})) {
      if (key in o) out.push(...violations(o[key], s, `${at}.${key}`));
    }
  }
  if (type === 'array') (value as unknown[]).forEach((v, i) => out.push(...violations(v, schema.items as Schema, `${at}[${i}]`)));
  return out;
}

/** Route paths under app/api as the OpenAPI document spells them ([name] → {name}). */
function appRoutes(dir = path.join(process.cwd(), 'app/api'), prefix = '/api'): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (!statSync(full).isDirectory()) continue;
    if (entry === 'demo') continue; // the demo supervisor is not part of the v1 status API
    const seg = entry.replace(/^\[(.+)\]$/, '{$1}');
    if (readdirSync(full).includes('route.ts')) out.push(`${prefix}/${seg}`);
    out.push(...appRoutes(full, `${prefix}/${seg}`));
  }
  return out;
}

describe('OpenAPI document', () => {
  const pool = usePool();
  const service = serviceOn(pool);
  const name = uniqueLease('openapi');
  beforeAll(async () => {
    await register(pool, name);
    await reporter(pool, await acquire(pool, name)).report(`${name}@2026-01-01T00:00:00Z`, 1);
  });

  it('lists exactly the status routes', () => {
    expect(Object.keys(openApiDocument().paths).sort()).toEqual(appRoutes().sort());
  });

  it('real responses conform to their schemas', async () => {
    const base = 'http://x/api/v1/schedulers';
    const cases: [Response, keyof typeof SCHEMAS][] = [
      [await listRoute(new Request(`${base}?limit=5`), () => service), 'SchedulerListResponse'],
      [await detailRoute(new Request(`${base}/${name}`), name, () => service), 'SchedulerDetailResponse'],
      [await detailRoute(new Request(`${base}/${name}?at=${new Date(Date.now() - 1_000).toISOString()}`), name, () => service), 'SchedulerDetailResponse'],
      [await historyRoute(new Request(`${base}/${name}/history`), name, () => service), 'SchedulerHistoryResponse'],
      [await healthzRoute(() => service), 'HealthzResponse'],
      [await detailRoute(new Request(`${base}/nobody`), 'nobody', () => service), 'Error'],
    ];
    for (const [response, schema] of cases) {
      expect(violations(await response.json(), SCHEMAS[schema] as Schema, schema)).toEqual([]);
    }
  });
});
