import type { Metadata, Viewport } from 'next';
import Link from 'next/link';
import { cookies } from 'next/headers';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { AlertBadge } from '@/components/alerts/alert-badge';
import { IdentityMenu } from '@/components/auth/identity-menu';
import { Providers } from '@/components/providers';
import { TimeZoneSwitch } from '@/components/time-zone-switch';
import { basePathMismatch, withBasePath } from '@/lib/client/base-path';
import { servedBasePath } from '@/lib/server';
import { parseTimeChoice, TIME_COOKIE } from '@/lib/api/time-cookie';
import './globals.css';

let basePathChecked = false;

/** Once per server process: say loudly if raw fetches would miss the routed base path. */
function checkBasePath(): void {
  if (basePathChecked) return;
  basePathChecked = true;
  const mismatch = basePathMismatch(servedBasePath());
  if (mismatch) console.error(mismatch);
}

export const metadata: Metadata = {
  title: 'Leaseboard',
  description: 'Who holds each scheduler lease, whether the holder is getting work done, and where nobody can know.',
  // Static files in public/ (scripts/favicons.ts); pages replace the icon with their worst health.
  icons: { icon: [{ url: withBasePath('/favicon.svg'), type: 'image/svg+xml' }], apple: withBasePath('/apple-touch-icon.png') },
  manifest: withBasePath('/manifest.webmanifest'),
};

export const viewport: Viewport = {
  width: 'device-width',
  initialScale: 1,
  colorScheme: 'light dark',
  themeColor: [
    { media: '(prefers-color-scheme: light)', color: '#f6f7f9' },
    { media: '(prefers-color-scheme: dark)', color: '#0f1216' },
  ],
};

/**
 * Rendered per request: every page carries its own CSP nonce (lib/host/security-headers.ts), and its
 * times in the zone the viewer's cookie names (lib/api/time-cookie.ts; UTC without one).
 * Header links do not prefetch: on a phone's slow link the first seconds belong to this
 * page, not to pages the reader may never open (bench:ui measures it).
 */
export default async function RootLayout({ children }: { children: ReactNode }) {
  await connection();
  checkBasePath();
  const time = parseTimeChoice((await cookies()).get(TIME_COOKIE)?.value);
  return (
    <html lang="en">
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <Providers time={time}>
          <header className="site-header">
            <Link href="/" className="brand" prefetch={false}>
              Leaseboard
            </Link>
            <span className="tagline">Scheduler leases: authority and progress, reported apart</span>
            <nav className="site-nav small" aria-label="Site">
              <Link href="/" prefetch={false}>
                Schedulers
              </Link>
              <Link href="/alerts" prefetch={false}>
                Alerts
              </Link>
              <Link href="/upcoming" prefetch={false}>
                Next hour
              </Link>
              <Link href="/reliability" prefetch={false}>
                Reliability
              </Link>
              <Link href="/audit" prefetch={false}>
                Audit
              </Link>
              <AlertBadge />
              <TimeZoneSwitch />
              <IdentityMenu />
            </nav>
          </header>
          <main id="main" tabIndex={-1}>
            {children}
          </main>
        </Providers>
      </body>
    </html>
  );
}
