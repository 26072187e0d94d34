/**
 * Small icons so that state is never carried by colour alone. Decorative
 * (aria-hidden): the text next to each icon says the same. The shapes live in
 * app/globals.css as CSS masks, so each icon costs one DOM element.
 */
import type { Tone } from '@/lib/client/health-display';
import type { AuthorityState, Health, WorkState } from '@/lib/status';

export type IconName = 'triangle' | 'cross' | 'question' | 'pause' | 'ring' | 'check' | 'exclaim';

const TONE_ICON: Record<Tone, IconName> = { bad: 'triangle', warn: 'exclaim', unknown: 'question', muted: 'pause', good: 'check' };

export const HEALTH_ICON: Record<Health, IconName> = {
  stalled: 'triangle',
  no_leader: 'cross',
  unknown: 'question',
  disabled: 'pause',
  idle: 'ring',
  progressing: 'check',
};

/** One element; the shape is a CSS mask (app/globals.css `.icon-*`), painted in the current colour. */
export function ToneIcon({ tone, icon }: { tone: Tone; icon?: IconName }) {
  return <span className={`icon icon-${icon ?? TONE_ICON[tone]}`} aria-hidden="true" />;
}

export const AUTHORITY_ICON: Record<AuthorityState, IconName> = {
  held: 'check',
  expired: 'cross',
  released: 'cross',
  none: 'cross',
  unknown: 'question',
};

export const WORK_ICON: Record<WorkState, IconName> = {
  progressing: 'check',
  idle: 'ring',
  stalled: 'triangle',
  none: 'pause',
  unknown: 'question',
};
