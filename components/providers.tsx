'use client';
/**
 * The browser's one query client, and the note that tells the observation
 * clock when server-rendered data arrives with a client navigation rather
 * than with the document (see lib/client/observation-clock.ts).
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { usePathname } from 'next/navigation';
import { useState, type ReactNode } from 'react';
import { noteClientNavigation } from '@/lib/client/observation-clock';
import { getQueryClient } from '@/lib/client/query-client';
import { TimeChoiceProvider } from '@/lib/client/time-zone';
import type { TimeChoice } from '@/lib/api/time-cookie';

/** `time`: the choice the server rendered with (its cookie), the server snapshot of every time shown. */
export function Providers({ children, time }: { children: ReactNode; time: TimeChoice | null }) {
  const queryClient = getQueryClient();
  const pathname = usePathname();
  const [firstPathname] = useState(pathname);
  // In render, before the new page's components read their data.
  if (pathname !== firstPathname) noteClientNavigation();
  return (
    <TimeChoiceProvider server={time}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </TimeChoiceProvider>
  );
}
