/**
 * Whether a client accepts a gzip answer, from its Accept-Encoding header
 * (RFC 9110 §12.5.3): `gzip` (or `x-gzip`) or `*` with a quality above 0.
 *
 * Guarantees: no header, `identity`, `gzip;q=0` or an unparsable quality →
 * false (the plain answer is always acceptable); an explicit `gzip;q=0` wins
 * over `*`. Never throws.
 */
export function acceptsGzip(header: string | string[] | null | undefined): boolean {
  if (header === null || header === undefined) return false;
  let gzip: number | null = null;
  let any: number | null = null;
  for (const item of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [coding = '', ...params] = item.split(';').map((s) => s.trim().toLowerCase());
    const qParam = params.find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    const quality = Number.isFinite(q) && q >= 0 && q <= 1 ? q : 0;
    if (coding === 'gzip' || coding === 'x-gzip') gzip = Math.max(gzip ?? 0, quality);
    else if (coding === '*') any = quality;
  }
  return (gzip ?? any ?? 0) > 0;
}
