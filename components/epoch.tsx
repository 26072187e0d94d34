/**
 * An epoch as a person reads it (lib/status/epoch.ts `formatEpoch`): `17` in
 * generation 0, `gen 2 · 17` after failovers, with the number machines compare
 * (the API's, the fence's) on hover and in `data-epoch`.
 */
import { formatEpoch, generationOf } from '@/lib/status';

export function Epoch({ value, fallback = '—' }: { value: number | null; fallback?: string }) {
  if (value === null) return <>{fallback}</>;
  const text = formatEpoch(value);
  return generationOf(value) === 0 ? <>{text}</> : <span title={`epoch ${value}`}>{text}</span>;
}
