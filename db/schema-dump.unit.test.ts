// Views read the same from PostgreSQL 15 as from 16 and later: given 15's text of a view over one
// relation, expect 16's (its top-level columns unqualified; a subquery's, a literal's and a quoted
// name's untouched); a view over several relations is left as it is (both versions qualify).
import { describe, expect, it } from 'vitest';
import { unqualifySingleRelationView } from './schema-dump';

describe('unqualifySingleRelationView', () => {
  it("writes 15's view text as 16 and later deparse it", () => {
    const fifteen = [
      ' SELECT o.ctid AS row_ctid,',
      '    o.lease',
      '   FROM public.occurrences o',
      "  WHERE ((o.key = (o.lease || 'o.x'::text)) AND (EXISTS ( SELECT 1",
      '           FROM public.occurrences n',
      '          WHERE ((n.lease = o.lease) AND (n.state <> (o.state)::text)))) AND (o.claimed_at >= o.scheduled_at) AND ("o.odd" IS NULL));',
    ].join('\n');
    expect(unqualifySingleRelationView(fifteen)).toBe(
      [
        ' SELECT ctid AS row_ctid,',
        '    lease',
        '   FROM public.occurrences o',
        "  WHERE ((key = (lease || 'o.x'::text)) AND (EXISTS ( SELECT 1",
        '           FROM public.occurrences n',
        '          WHERE ((n.lease = o.lease) AND (n.state <> (o.state)::text)))) AND (claimed_at >= scheduled_at) AND ("o.odd" IS NULL));',
      ].join('\n'),
    );
  });

  it('qualified by the table name when the view gives no alias', () => {
    expect(unqualifySingleRelationView(' SELECT leases.name\n   FROM public.leases\n  WHERE (leases.epoch > 0);')).toBe(
      ' SELECT name\n   FROM public.leases\n  WHERE (epoch > 0);',
    );
  });

  it('leaves a view over several relations as it is', () => {
    const joined = ' SELECT l.name,\n    s.epoch\n   FROM (public.leases l\n     JOIN public.progress_summaries s ON ((s.lease = l.name)));';
    expect(unqualifySingleRelationView(joined)).toBe(joined);
    const listed = ' SELECT l.name\n   FROM public.leases l,\n    public.schedulers s\n  WHERE (s.name = l.name);';
    expect(unqualifySingleRelationView(listed)).toBe(listed);
  });
});
