/**
 * Import this FIRST in an entry point (lib/cli/start.ts, lib/cli/main.ts):
 * tracing must be set up before `pg` is required for queries to be traced.
 * Off (null) unless OTEL_EXPORTER_OTLP_ENDPOINT is set (./tracing.ts).
 */
import { startTracing } from './tracing';

export const tracing = startTracing(process.env, 'leaseboard');
