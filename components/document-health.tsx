'use client';
/** Keeps the tab title and favicon on the page's worst health (they must also go "unknown" when stale). */
import { useEffect } from 'react';
import { faviconDataUrl, type PageSummary } from '@/lib/client/health-display';

export function DocumentHealth({ title, summary }: { title: string; summary: PageSummary }) {
  const icon = faviconDataUrl(summary);
  useEffect(() => {
    document.title = title;
  }, [title]);
  useEffect(() => {
    const links = document.querySelectorAll<HTMLLinkElement>('link[rel~="icon"]');
    if (links.length === 0) {
      const link = document.createElement('link');
      link.rel = 'icon';
      link.href = icon;
      document.head.appendChild(link);
      return;
    }
    for (const link of links) {
      link.type = 'image/svg+xml';
      link.href = icon;
    }
  }, [icon]);
  return null;
}
