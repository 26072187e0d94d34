'use client';
/**
 * Keyboard navigation between the overview's rows: ↓/j and ↑/k move the
 * focus to the next or previous scheduler's link, Home/End to the first or
 * last; Enter on a link opens that scheduler (the link's own behaviour).
 * Focus stays on real links, so Tab, screen readers and middle-click work as
 * on any link; keys typed into a field or a header's button are left alone.
 */
import type { KeyboardEvent } from 'react';

const ROW = 'tr[data-testid="scheduler-row"]';
const LINK = 'a[data-testid="scheduler-link"]';

const STEP: Readonly<Record<string, 'next' | 'previous' | 'first' | 'last'>> = {
  ArrowDown: 'next',
  j: 'next',
  ArrowUp: 'previous',
  k: 'previous',
  Home: 'first',
  End: 'last',
};

export function onRowKeys(event: KeyboardEvent<HTMLElement>): void {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const step = STEP[event.key];
  const target = event.target as HTMLElement;
  const row = target.closest(ROW);
  if (step === undefined || row === null || target.closest('input, textarea, select, button')) return;
  const rows = [...event.currentTarget.querySelectorAll(ROW)];
  const at = rows.indexOf(row);
  const to = step === 'next' ? at + 1 : step === 'previous' ? at - 1 : step === 'first' ? 0 : rows.length - 1;
  const link = rows[to]?.querySelector<HTMLAnchorElement>(LINK);
  if (link) {
    event.preventDefault();
    link.focus();
  }
}
