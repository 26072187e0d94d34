/**
 * OpenTelemetry tracing for a Leaseboard process, off unless
 * OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set.
 *
 * Guarantees
 * - Off: nothing is registered, nothing is exported, no connection is made;
 *   `traced` (./span.ts) is a flag check.
 * - On: spans go over OTLP/HTTP (JSON) in batches to the standard endpoint
 *   variables (the exporter reads OTEL_EXPORTER_OTLP_* itself: headers,
 *   timeout, compression). PostgreSQL queries become child spans of the unit
 *   of work that issued them (@opentelemetry/instrumentation-pg, statement
 *   text with placeholders only, and only under a parent span).
 * - Every exported span passes ./redact.ts: no tokens, host names, users,
 *   connection strings, query values or error messages leave the process.
 * - `shutdown()` flushes what is buffered, within the exporter's timeout.
 * Not guaranteed: delivery. An unreachable collector loses spans (the
 *   exporter logs through the OTel diagnostic logger, silent by default);
 *   the work it traced is never slowed or failed by it.
 * Must run before `pg` is first required (./register.ts, imported first by
 * each entry point), or its queries are not traced.
 */
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-node';
import { redactAttributes } from './redact';
import { setTracingOn } from './span';

export interface Tracing {
  /** Flushes buffered spans and stops exporting. */
  shutdown(): Promise<void>;
}

type Env = Record<string, string | undefined>;

function tracingEndpoint(env: Env): string | null {
  return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || null;
}

/** A span as exported: the original, seen through an allowlist of attributes (events keep their name and allowed attributes). */
function redacted(span: ReadableSpan): ReadableSpan {
  const view = Object.create(span) as { -readonly [K in keyof ReadableSpan]: ReadableSpan[K] };
  Object.defineProperty(view, 'attributes', { value: redactAttributes(span.attributes) });
  Object.defineProperty(view, 'events', {
    value: span.events.map((event) => ({ ...event, attributes: event.attributes && redactAttributes(event.attributes) })),
  });
  return view;
}

function redactingExporter(inner: SpanExporter): SpanExporter {
  return {
    export: (spans, done) => inner.export(spans.map(redacted), done),
    shutdown: () => inner.shutdown(),
    forceFlush: () => inner.forceFlush?.() ?? Promise.resolve(),
  };
}

/** Starts tracing when an OTLP endpoint is configured; null (and nothing started) otherwise. */
export function startTracing(env: Env, serviceName: string): Tracing | null {
  if (!tracingEndpoint(env)) return null;
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME?.trim() || serviceName }),
    spanProcessors: [new BatchSpanProcessor(redactingExporter(new OTLPTraceExporter()))],
  });
  provider.register();
  const unregister = registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [new PgInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false })],
  });
  setTracingOn(true);
  return {
    async shutdown() {
      setTracingOn(false);
      unregister();
      // A collector that is gone loses the last batch; it never fails the process's own shutdown.
      await provider.shutdown().catch(() => {});
    },
  };
}
