'use client';
/**
 * "Copy link to this moment": /schedulers/{name}?at=ISO under the base path,
 * where the moment is the database time of the observation on screen (never
 * the browser clock). The link is also shown, so it can be copied by hand
 * where the clipboard API is unavailable (plain http on another host).
 */
import Link from 'next/link';
import { useState } from 'react';
import { withBasePath } from '@/lib/client/base-path';

function momentPath(name: string, at: string): string {
  return withBasePath(`/schedulers/${encodeURIComponent(name)}?at=${encodeURIComponent(at)}`);
}

export function MomentLink({ name, at }: { name: string; at: string }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const path = momentPath(name, at);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(new URL(path, window.location.origin).toString());
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <div className="moment-link">
      <button type="button" onClick={copy} data-testid="copy-moment-link">
        Copy link to this moment
      </button>
      {/* No prefetch: the moment changes with every poll, and each new href would be fetched ahead. */}
      <Link href={`/schedulers/${encodeURIComponent(name)}?at=${encodeURIComponent(at)}`} prefetch={false} className="small truncate" data-testid="moment-link">
        {path}
      </Link>
      <span className="small muted" role="status" aria-live="polite">
        {copied === 'yes' ? 'Copied.' : copied === 'failed' ? 'Copy failed; use the link.' : ''}
      </span>
    </div>
  );
}
