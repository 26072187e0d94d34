/**
 * The product's schema as one SQL text (db/schema.sql): every table, view,
 * sequence, constraint, index, trigger, function and aggregate the migrations
 * leave in `public`, read from the catalog of a freshly migrated database.
 *
 * Why the catalog and not pg_dump: pg_dump must match the server's major
 * version, and the two servers the tests run on differ (the embedded package
 * is PostgreSQL 18 and ships no pg_dump; CI's is 15); pg_dump's text differs
 * between majors too (session settings, restrict keys, owner lines). The
 * server's own deparsers (pg_get_functiondef, pg_get_indexdef,
 * pg_get_constraintdef, pg_get_triggerdef, pg_get_viewdef) give the same
 * text on both, so one committed file holds for both (db/schema.int.test.ts
 * compares it on whichever server the tier runs on).
 *
 * Guarantees
 * - Deterministic: objects in a fixed order (by kind, then name in byte
 *   order), every name schema-qualified (`public.leases`; the dump runs with
 *   an empty search_path, as pg_dump does). Function bodies are as written.
 * - Nothing that depends on the machine: no owners, privileges, roles
 *   (db/roles.ts makes those, by configured names), tablespaces, version
 *   header, or drizzle's bookkeeping (schema `drizzle`).
 * - Refuses what it cannot render: a kind of object in `public` it does not
 *   write (a type, a policy, a rule, a comment, an extension's member…) fails
 *   the dump by name, rather than leaving it out silently.
 * Not guaranteed: that the text replays exactly as the migrations did
 * (statements are grouped by kind, not by dependency); it is for reading and
 * for comparing, not for restoring.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrateDatabase } from './migrate';

/** The first lines of db/schema.sql: what it is and how it is made. */
const SCHEMA_HEADER = [
  '-- The product schema as every migration in db/migrations leaves it (schema public): tables, views,',
  '-- sequences, constraints, indexes, triggers and the protocol functions. Generated from the catalog',
  '-- of a freshly migrated database by `npm run db:schema` (db/schema-dump.ts); do not edit by hand.',
  '-- No owners, privileges or roles: db/roles.ts makes those, under the names configured.',
].join('\n');

class SchemaDumpError extends Error {
  constructor(message: string) {
    super(`schema dump: ${message}`);
    this.name = 'SchemaDumpError';
  }
}

/** Objects of `public` this dump does not render; any of them fails it. */
const UNRENDERED = `
  SELECT 'type ' || t.typname AS what FROM pg_type t
   WHERE t.typnamespace = 'public'::regnamespace AND t.typtype IN ('e', 'd', 'r', 'm', 'p')
      OR (t.typnamespace = 'public'::regnamespace AND t.typtype = 'c'
          AND (SELECT c.relkind FROM pg_class c WHERE c.oid = t.typrelid) = 'c')
  UNION ALL SELECT 'policy ' || polname FROM pg_policy p JOIN pg_class c ON c.oid = p.polrelid WHERE c.relnamespace = 'public'::regnamespace
  UNION ALL SELECT 'rule ' || rulename FROM pg_rules WHERE schemaname = 'public'
  UNION ALL SELECT 'comment on ' || d.classoid::regclass::text FROM pg_description d
   WHERE (d.classoid = 'pg_class'::regclass AND d.objoid IN (SELECT oid FROM pg_class WHERE relnamespace = 'public'::regnamespace))
      OR (d.classoid = 'pg_proc'::regclass AND d.objoid IN (SELECT oid FROM pg_proc WHERE pronamespace = 'public'::regnamespace))
  UNION ALL SELECT 'extension ' || extname FROM pg_extension WHERE extname <> 'plpgsql'
  UNION ALL SELECT 'relation ' || relname || ' of kind ' || relkind::text FROM pg_class
   WHERE relnamespace = 'public'::regnamespace AND relkind NOT IN ('r', 'p', 'v', 'S', 'i', 'I')
  UNION ALL SELECT 'row level security on ' || relname FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relrowsecurity
  UNION ALL SELECT 'aggregate ' || a.aggfnoid::regproc::text || ' with ' || 'a moving, ordered-set or combined form' FROM pg_aggregate a
   JOIN pg_proc p ON p.oid = a.aggfnoid WHERE p.pronamespace = 'public'::regnamespace
     AND (a.aggkind <> 'n' OR a.aggmtransfn <> 0 OR a.aggcombinefn <> 0 OR a.aggserialfn <> 0 OR a.aggsortop <> 0)`;

const SEQUENCES = `
  SELECT format('CREATE SEQUENCE public.%I AS %s START WITH %s INCREMENT BY %s MINVALUE %s MAXVALUE %s CACHE %s%s;',
                c.relname, format_type(s.seqtypid, NULL), s.seqstart, s.seqincrement, s.seqmin, s.seqmax, s.seqcache,
                CASE WHEN s.seqcycle THEN ' CYCLE' ELSE '' END)
         || COALESCE(format(E'\\nALTER SEQUENCE public.%I OWNED BY public.%I.%I;', c.relname, t.relname, a.attname), '') AS text
  FROM pg_sequence s JOIN pg_class c ON c.oid = s.seqrelid
  LEFT JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.refclassid = 'pg_class'::regclass AND d.deptype = 'a'
  LEFT JOIN pg_class t ON t.oid = d.refobjid
  LEFT JOIN pg_attribute a ON a.attrelid = d.refobjid AND a.attnum = d.refobjsubid
  WHERE c.relnamespace = 'public'::regnamespace
  ORDER BY c.relname COLLATE "C"`;

/** Columns with their types, defaults, identity, generation and NOT NULL; partitions as `PARTITION OF`. */
const TABLES = `
  SELECT CASE WHEN c.relispartition THEN
           format('CREATE TABLE public.%I PARTITION OF public.%I %s;', c.relname, parent.relname, pg_get_expr(c.relpartbound, c.oid))
         ELSE
           format(E'CREATE %sTABLE public.%I (\\n%s\\n)%s%s;', CASE WHEN c.relpersistence = 'u' THEN 'UNLOGGED ' ELSE '' END, c.relname,
             (SELECT string_agg(
                       format('    %I %s', a.attname, format_type(a.atttypid, a.atttypmod))
                       || CASE WHEN a.attcollation <> 0 AND a.attcollation <> ty.typcollation THEN ' COLLATE ' || a.attcollation::regcollation::text ELSE '' END
                       || CASE a.attidentity WHEN 'a' THEN ' GENERATED ALWAYS AS IDENTITY' WHEN 'd' THEN ' GENERATED BY DEFAULT AS IDENTITY' ELSE '' END
                       || CASE WHEN a.attgenerated = 's' THEN ' GENERATED ALWAYS AS (' || pg_get_expr(ad.adbin, ad.adrelid) || ') STORED'
                               WHEN a.attgenerated = 'v' THEN ' GENERATED ALWAYS AS (' || pg_get_expr(ad.adbin, ad.adrelid) || ') VIRTUAL'
                               WHEN ad.adbin IS NOT NULL THEN ' DEFAULT ' || pg_get_expr(ad.adbin, ad.adrelid) ELSE '' END
                       || CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE '' END,
                       E',\\n' ORDER BY a.attnum)
              FROM pg_attribute a JOIN pg_type ty ON ty.oid = a.atttypid
              LEFT JOIN pg_attrdef ad ON ad.adrelid = a.attrelid AND ad.adnum = a.attnum
              WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped),
             CASE WHEN c.relkind = 'p' THEN ' PARTITION BY ' || pg_get_partkeydef(c.oid) ELSE '' END,
             CASE WHEN c.reloptions IS NOT NULL THEN format(' WITH (%s)', array_to_string(c.reloptions, ', ')) ELSE '' END)
         END AS text
  FROM pg_class c
  LEFT JOIN pg_inherits i ON i.inhrelid = c.oid AND c.relispartition
  LEFT JOIN pg_class parent ON parent.oid = i.inhparent
  WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p')
  ORDER BY c.relispartition, c.relname COLLATE "C"`;

const VIEWS = `
  SELECT 'public.' || quote_ident(c.relname) AS name, pg_get_viewdef(c.oid, false) AS definition
  FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'v'
  ORDER BY c.relname COLLATE "C"`;

/** PostgreSQL 16 is the first whose views deparse as unqualifySingleRelationView writes them. */
const UNQUALIFIED_VIEWS_SINCE = 160000;

/**
 * A view's definition as PostgreSQL 16 and later deparse it, from an older server's text. Since 16 a
 * view's range table no longer holds OLD and NEW, so a view over one relation deparses its
 * top-level column references unqualified (`lease`, where 15 wrote `o.lease`); inside a subquery
 * both qualify. So: when the top-level FROM names one relation, its prefix goes from the top-level
 * query, never from a subquery (`( SELECT …)`), a string literal or a quoted name.
 */
export function unqualifySingleRelationView(definition: string): string {
  const from = /^ {3}FROM ([\w".]+)(?: (\w+))?$/m.exec(definition);
  if (!from) return definition;
  const prefix = `${from[2] ?? from[1]!.split('.').pop()}.`;
  const subqueries: boolean[] = [];
  let out = '';
  for (let i = 0; i < definition.length;) {
    const ch = definition[i]!;
    if (ch === "'" || ch === '"') {
      let end = i + 1;
      while (end < definition.length && !(definition[end] === ch && definition[end + 1] !== ch)) end += definition[end] === ch ? 2 : 1;
      out += definition.slice(i, end + 1);
      i = end + 1;
      continue;
    }
    if (ch === '(') subqueries.push(definition.startsWith('( SELECT', i));
    if (ch === ')') subqueries.pop();
    const atTopLevel = !subqueries.includes(true);
    if (atTopLevel && definition.startsWith(prefix, i) && !/[\w".]/.test(definition[i - 1] ?? ' ')) {
      i += prefix.length;
      continue;
    }
    out += ch;
    i += 1;
  }
  return out;
}

/** Constraints but NOT NULL (in the columns) and those a partition inherits; foreign keys last. */
const CONSTRAINTS = `
  SELECT format('ALTER TABLE ONLY public.%I ADD CONSTRAINT %I %s;', c.relname, k.conname, pg_get_constraintdef(k.oid)) AS text
  FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid
  WHERE c.relnamespace = 'public'::regnamespace AND k.contype IN ('p', 'u', 'c', 'x', 'f') AND k.conparentid = 0
  ORDER BY k.contype = 'f', c.relname COLLATE "C", k.conname COLLATE "C"`;

/** Indexes that are not a constraint's and not a partition's copy of its parent's. */
const INDEXES = `
  SELECT pg_get_indexdef(i.indexrelid) || ';' AS text
  FROM pg_index i JOIN pg_class x ON x.oid = i.indexrelid JOIN pg_class c ON c.oid = i.indrelid
  WHERE c.relnamespace = 'public'::regnamespace AND NOT x.relispartition
    AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid AND k.conrelid = i.indrelid)
  ORDER BY c.relname COLLATE "C", x.relname COLLATE "C"`;

const FUNCTIONS = `
  SELECT pg_get_functiondef(p.oid) || ';' AS text
  FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace AND p.prokind <> 'a'
  ORDER BY p.proname COLLATE "C", pg_get_function_identity_arguments(p.oid) COLLATE "C"`;

const AGGREGATES = `
  SELECT format(E'CREATE AGGREGATE public.%I(%s) (\\n    SFUNC = %s,\\n    STYPE = %s%s%s\\n);',
                p.proname, pg_get_function_identity_arguments(p.oid), a.aggtransfn::regproc::text, format_type(a.aggtranstype, NULL),
                CASE WHEN a.aggfinalfn <> 0 THEN E',\\n    FINALFUNC = ' || a.aggfinalfn::regproc::text ELSE '' END,
                CASE WHEN a.agginitval IS NOT NULL THEN E',\\n    INITCOND = ' || quote_literal(a.agginitval) ELSE '' END) AS text
  FROM pg_aggregate a JOIN pg_proc p ON p.oid = a.aggfnoid
  WHERE p.pronamespace = 'public'::regnamespace
  ORDER BY p.proname COLLATE "C", pg_get_function_identity_arguments(p.oid) COLLATE "C"`;

const TRIGGERS = `
  SELECT pg_get_triggerdef(t.oid) || ';' AS text
  FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
  WHERE c.relnamespace = 'public'::regnamespace AND NOT t.tgisinternal AND t.tgparentid = 0
  ORDER BY c.relname COLLATE "C", t.tgname COLLATE "C"`;

/** Each section's statements, in the order they are written. */
const SECTIONS: [string, (client: pg.ClientBase, version: number) => Promise<string[]>][] = [
  ['Functions', (client) => texts(client, FUNCTIONS)],
  ['Aggregates', (client) => texts(client, AGGREGATES)],
  ['Sequences', (client) => texts(client, SEQUENCES)],
  ['Tables', (client) => texts(client, TABLES)],
  [
    'Views',
    async (client, version) =>
      (await client.query<{ name: string; definition: string }>(VIEWS)).rows.map(
        ({ name, definition }) => `CREATE VIEW ${name} AS\n${version < UNQUALIFIED_VIEWS_SINCE ? unqualifySingleRelationView(definition) : definition}`,
      ),
  ],
  ['Constraints', (client) => texts(client, CONSTRAINTS)],
  ['Indexes', (client) => texts(client, INDEXES)],
  ['Triggers', (client) => texts(client, TRIGGERS)],
];

async function texts(client: pg.ClientBase, query: string): Promise<string[]> {
  return (await client.query<{ text: string }>(query)).rows.map((row) => row.text);
}

/** The schema of the database `client` is connected to, as db/schema.sql holds it (ends with one newline). */
export async function dumpSchema(client: pg.ClientBase): Promise<string> {
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  try {
    // Deparsed names are qualified unless their schema is on the path; some deparsers qualify always.
    // So nothing is on it (as pg_dump does), and every name is written qualified, the same everywhere.
    await client.query(`SET LOCAL search_path = ''`);
    const unrendered = await client.query<{ what: string }>(UNRENDERED);
    if (unrendered.rows.length > 0) throw new SchemaDumpError(`public holds what this dump does not render: ${unrendered.rows.map((r) => r.what).join(', ')}`);
    const version = Number((await client.query<{ v: string }>(`SELECT current_setting('server_version_num') AS v`)).rows[0]!.v);
    const sections: string[] = [SCHEMA_HEADER];
    for (const [title, statements] of SECTIONS) {
      const written = await statements(client, version);
      if (written.length > 0) sections.push(`-- ${title}`, ...written.map((text) => text.trimEnd()));
    }
    return `${sections.join('\n\n')}\n`;
  } finally {
    await client.query('ROLLBACK');
  }
}

/**
 * db/schema.sql's text as the migrations make it today: a new database beside `adminUrl`'s (on the
 * same server), migrated by the product's migrations alone (not the demo's), dumped, dropped.
 */
export async function dumpFreshSchema(adminUrl: string): Promise<string> {
  const name = `leaseboard_schema_${randomBytes(5).toString('hex')}`;
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
    try {
      await migrateDatabase(url.toString());
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      try {
        return await dumpSchema(client);
      } finally {
        await client.end();
      }
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    }
  } finally {
    await admin.end();
  }
}
