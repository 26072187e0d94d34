// GET /api/demo/processes — demo mode only; see lib/demo/control-client.ts.
import { listDemoProcesses } from '@/lib/demo/control-client';

export const dynamic = 'force-dynamic';

export function GET(): Promise<Response> {
  return listDemoProcesses();
}
