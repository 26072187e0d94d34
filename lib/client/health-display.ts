/**
 * How each health reads to a person: a word, a symbol and a tone (colour is
 * never the only carrier — every badge shows the word and an icon too), plus
 * the tab title and favicon that summarise the worst health.
 *
 * Pure: no DOM, no clock. The same drawings are in public/favicons/ as files
 * (written by scripts/favicons.ts).
 */
import { HEALTH_SEVERITY, type AuthorityState, type Health, type WorkState } from '@/lib/status';
import { withBasePath } from './base-path';

export type Tone = 'bad' | 'warn' | 'unknown' | 'muted' | 'good';

export interface HealthLook {
  label: string;
  /** Plain-text symbol for the tab title. */
  symbol: string;
  tone: Tone;
}

export const HEALTH_LOOK: Record<Health, HealthLook> = {
  stalled: { label: 'Stalled', symbol: '▲', tone: 'bad' },
  no_leader: { label: 'No leader', symbol: '✕', tone: 'bad' },
  unknown: { label: 'Unknown', symbol: '?', tone: 'unknown' },
  disabled: { label: 'Disabled', symbol: '‖', tone: 'muted' },
  idle: { label: 'Idle', symbol: '○', tone: 'good' },
  progressing: { label: 'Progressing', symbol: '●', tone: 'good' },
};

export const AUTHORITY_LABEL: Record<AuthorityState, string> = {
  held: 'Held',
  expired: 'Expired',
  released: 'Released',
  none: 'Never held',
  unknown: 'Unknown',
};

export const WORK_LABEL: Record<WorkState, string> = {
  progressing: 'Progressing',
  stalled: 'Stalled',
  idle: 'Idle',
  none: 'No holder',
  unknown: 'Unknown',
};

export function authorityTone(state: AuthorityState, atRisk: boolean): Tone {
  switch (state) {
    case 'held':
      return atRisk ? 'warn' : 'good';
    case 'expired':
    case 'released':
    case 'none':
      return 'bad';
    case 'unknown':
      return 'unknown';
    default: {
      const never: never = state;
      return never;
    }
  }
}

export function workTone(state: WorkState): Tone {
  switch (state) {
    case 'progressing':
    case 'idle':
      return 'good';
    case 'stalled':
      return 'bad';
    case 'none':
      return 'muted';
    case 'unknown':
      return 'unknown';
    default: {
      const never: never = state;
      return never;
    }
  }
}

/** What the whole page currently claims, worst first. */
export type PageSummary = { kind: 'not_observed' } | { kind: 'store_unreadable' } | { kind: 'empty' } | { kind: 'worst'; health: Health; count: number };

export function summarize(counts: Partial<Record<Health, number>>, observation: { stale: boolean; storeOk: boolean }): PageSummary {
  if (observation.stale) return { kind: 'not_observed' };
  if (!observation.storeOk) return { kind: 'store_unreadable' };
  for (const health of HEALTH_SEVERITY) {
    const count = counts[health] ?? 0;
    if (count > 0) return { kind: 'worst', health, count };
  }
  return { kind: 'empty' };
}

/** "▲ 2 stalled · Leaseboard". */
export function tabTitle(summary: PageSummary, suffix = 'Leaseboard'): string {
  switch (summary.kind) {
    case 'not_observed':
      return `? not observed · ${suffix}`;
    case 'store_unreadable':
      return `? store unreadable · ${suffix}`;
    case 'empty':
      return suffix;
    case 'worst': {
      const look = HEALTH_LOOK[summary.health];
      return `${look.symbol} ${summary.count} ${look.label.toLowerCase()} · ${suffix}`;
    }
    default: {
      const never: never = summary;
      return never;
    }
  }
}

/** "▲ Stalled · nightly-export · Leaseboard" (one scheduler: no count). */
export function schedulerTabTitle(name: string, summary: PageSummary): string {
  if (summary.kind !== 'worst') return tabTitle(summary, `${name} · Leaseboard`);
  const look = HEALTH_LOOK[summary.health];
  return `${look.symbol} ${look.label} · ${name} · Leaseboard`;
}

const TONE_FILL: Record<Tone, string> = {
  bad: '#d12d2d',
  warn: '#c77700',
  unknown: '#7a6ab0',
  muted: '#6b7280',
  good: '#1f8f4e',
};

function faviconShape(summary: PageSummary): { tone: Tone; shape: string } {
  const unknownMark =
    '<circle cx="16" cy="16" r="13" fill="FILL"/><rect x="14" y="21" width="4" height="4" fill="#fff"/><path d="M11 12a5 5 0 1 1 7 4.6c-1.2.6-2 1.2-2 2.4v.5" stroke="#fff" stroke-width="3.2" fill="none"/>';
  if (summary.kind !== 'worst') return { tone: summary.kind === 'empty' ? 'muted' : 'unknown', shape: unknownMark };
  switch (summary.health) {
    case 'stalled':
      return {
        tone: 'bad',
        shape:
          '<path d="M16 2 31 29H1Z" fill="FILL"/><rect x="14" y="11" width="4" height="10" fill="#fff"/><rect x="14" y="23" width="4" height="4" fill="#fff"/>',
      };
    case 'no_leader':
      return {
        tone: 'bad',
        shape: '<rect x="2" y="2" width="28" height="28" rx="5" fill="FILL"/><path d="M10 10 22 22M22 10 10 22" stroke="#fff" stroke-width="4"/>',
      };
    case 'unknown':
      return { tone: 'unknown', shape: unknownMark };
    case 'disabled':
      return {
        tone: 'muted',
        shape:
          '<circle cx="16" cy="16" r="13" fill="FILL"/><rect x="11" y="9" width="3.5" height="14" fill="#fff"/><rect x="17.5" y="9" width="3.5" height="14" fill="#fff"/>',
      };
    case 'idle':
      return { tone: 'good', shape: '<circle cx="16" cy="16" r="11" fill="none" stroke="FILL" stroke-width="6"/>' };
    case 'progressing':
      return { tone: 'good', shape: '<circle cx="16" cy="16" r="13" fill="FILL"/><path d="M9 16.5 14 21 23 11" stroke="#fff" stroke-width="4" fill="none"/>' };
    default: {
      const never: never = summary.health;
      return never;
    }
  }
}

/** A 32×32 SVG favicon for the page's worst health. */
export function faviconSvg(summary: PageSummary): string {
  const { tone, shape } = faviconShape(summary);
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">${shape.replaceAll('FILL', TONE_FILL[tone])}</svg>`;
}

/**
 * The same favicon as a data URL: what the page sets while it runs (it must
 * switch to "not observed" even when the network is gone, so no fetch).
 */
export function faviconDataUrl(summary: PageSummary): string {
  return `data:image/svg+xml,${encodeURIComponent(faviconSvg(summary))}`;
}

/** Every summary a page can show, one per favicon; public/favicons/{faviconName}.svg holds each as a file. */
export const FAVICON_SUMMARIES: readonly PageSummary[] = [
  ...HEALTH_SEVERITY.map((health): PageSummary => ({ kind: 'worst', health, count: 1 })),
  { kind: 'not_observed' },
  { kind: 'store_unreadable' },
  { kind: 'empty' },
];

/** `stalled`, `no-leader`, …, `not-observed`, `store-unreadable`, `empty`: the file name in public/favicons/. */
export function faviconName(summary: PageSummary): string {
  return (summary.kind === 'worst' ? summary.health : summary.kind).replaceAll('_', '-');
}

/**
 * A page's icons for Next's metadata: the worst-health favicon (inline, as the
 * page will keep it current) and the home-screen icon from public/.
 */
export function pageIcons(summary: PageSummary) {
  return { icon: [{ url: faviconDataUrl(summary), type: 'image/svg+xml' }], apple: withBasePath('/apple-touch-icon.png') };
}
