/**
 * How the durability fact (lib/status/durability.ts, the list's `durability`)
 * reads to a person: a headline, the details beside it, a tone, and the
 * reasons in full for a tooltip. Pure: no DOM, no clock.
 *
 * Guarantees: a browser whose data is stale (more than two poll intervals)
 * reads unknown, as every other state on the page does; `unknown` is never
 * drawn in a good tone; a synchronous mode without a standby reads bad
 * (commits wait), a standby too far behind reads warn whatever the mode.
 */
import type { Durability } from '@/lib/api/types';
import { formatDuration } from '@/lib/status';
import type { Tone } from './health-display';

export interface DurabilityView {
  tone: Tone;
  headline: string;
  details: string[];
  /** Every reason, one per line (tooltip and screen readers). */
  title: string;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function headline(d: Durability): { text: string; tone: Tone } {
  switch (d.mode) {
    case 'sync':
      return d.synchronousStandbys === 0
        ? { text: 'Synchronous replication, no standby: writes wait', tone: 'bad' }
        : { text: `Synchronous replication · ${plural(d.synchronousStandbys ?? 0, 'standby')}`, tone: 'good' };
    case 'async':
      return { text: `Asynchronous replication · ${plural(d.asynchronousStandbys ?? 0, 'standby')}: newest grants can be lost at a failover`, tone: 'warn' };
    case 'single':
      return { text: 'Single database node: no standby', tone: 'muted' };
    case 'unknown':
      return { text: 'Durability unknown', tone: 'unknown' };
    default: {
      const never: never = d.mode;
      throw new Error(`unknown durability mode ${String(never)}`);
    }
  }
}

function lagDetail(d: Durability): string | null {
  switch (d.lag.state) {
    case 'none':
      return null;
    case 'unknown':
      return 'lag unknown';
    case 'ok':
    case 'behind':
      return `lag ${formatDuration(d.lag.ms ?? 0)}${d.lag.state === 'behind' ? ` > ${formatDuration(d.lag.maxMs)}` : ''}`;
    default: {
      const never: never = d.lag.state;
      throw new Error(`unknown lag state ${String(never)}`);
    }
  }
}

export function durabilityView(d: Durability, stale: boolean): DurabilityView {
  const title = d.reasons.map((r) => r.message).join('\n');
  if (stale) return { tone: 'unknown', headline: 'Durability unknown', details: ['not observed recently'], title };
  const head = headline(d);
  const details: string[] = [];
  const lag = lagDetail(d);
  if (lag !== null) details.push(lag);
  if (d.answeredBy !== null) details.push(`answered by ${d.answeredBy.node ?? 'the database'}${d.answeredBy.role === 'standby' ? ' (a standby)' : ''}`);
  if (d.generation !== null && d.generation > 0) details.push(`failover generation ${d.generation}`);
  const tone: Tone = d.lag.state === 'behind' && head.tone === 'good' ? 'warn' : head.tone;
  return { tone, headline: head.text, details, title };
}

/** Why the service answered unknown although it read something: a standby too far behind answered (null otherwise). */
export function standbyBehindText(d: Durability, storeOk: boolean): string | null {
  if (storeOk || d.answeredBy?.role !== 'standby' || d.lag.state === 'ok') return null;
  const node = d.answeredBy.node ?? 'a standby';
  return d.lag.ms === null
    ? `Answered by standby ${node}, whose lag cannot be measured`
    : `Answered by standby ${node}, ${formatDuration(d.lag.ms)} behind (more than ${formatDuration(d.lag.maxMs)})`;
}
