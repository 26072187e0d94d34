// GET /api/demo/processes — demo mode only; see lib/demo/control-client.ts.
import { forwardToSupervisor } from '@/lib/demo/control-client';

export const dynamic = 'force-dynamic';

export function GET(): Promise<Response> {
  return forwardToSupervisor('GET', '/processes');
}
