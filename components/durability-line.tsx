'use client';
/**
 * What protects the lease authority, in one line under the observation
 * status: the mode (single node, asynchronous, synchronous with N standbys,
 * unknown), the standbys' lag, the node that answered, the failover
 * generation. Words and an icon carry the state, never colour alone; the
 * full reasons are in the title. Display rules: lib/client/durability-view.ts.
 */
import type { Durability } from '@/lib/api/types';
import { durabilityView } from '@/lib/client/durability-view';
import { ToneIcon } from './tone-icon';

export function DurabilityLine({ durability, stale }: { durability: Durability; stale: boolean }) {
  const view = durabilityView(durability, stale);
  return (
    <p className="durability-line" data-testid="durability" data-mode={stale ? 'unknown' : durability.mode} title={view.title}>
      <span className={`chip tone-${view.tone}`}>
        <ToneIcon tone={view.tone} />
        <span>{view.headline}</span>
      </span>
      {view.details.map((detail) => (
        <span key={detail} className="muted small">
          {detail}
        </span>
      ))}
    </p>
  );
}
