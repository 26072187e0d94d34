/**
 * Test fixture process (lib/telemetry/tracing.int.test.ts): answers one list
 * and one detail request through the same route handlers the app binds
 * (./../http/handlers.ts), in a process of its own, then flushes its traces
 * and prints one JSON line: `{ event: "probed", tracing, list, detail }` (on/off and the two
 * HTTP statuses). Usage: `tsx traced-route-probe.ts SCHEDULER` with
 * DATABASE_URL (and OTEL_EXPORTER_OTLP_ENDPOINT to trace) set.
 */
import { tracing } from '../../telemetry/register';
import { tracingOn } from '../../telemetry/span';
import { detailRoute, listRoute } from '../http/handlers';
import { closeStatusService, statusService } from '../instance';

async function probe(scheduler: string): Promise<void> {
  const on = tracingOn();
  const list = await listRoute(new Request('http://probe.invalid/api/v1/schedulers'), statusService);
  const detail = await detailRoute(new Request(`http://probe.invalid/api/v1/schedulers/${scheduler}`), scheduler, statusService);
  await closeStatusService();
  await tracing?.shutdown();
  process.stdout.write(`${JSON.stringify({ event: 'probed', tracing: on, list: list.status, detail: detail.status })}\n`);
}

void probe(process.argv[2] ?? 'missing');
