/**
 * Spans around Leaseboard's own units of work (a route, the status read, the
 * projection, a renewal batch, a fenced write, an alert round).
 *
 * Guarantees
 * - With tracing off (no OTEL_EXPORTER_OTLP_ENDPOINT, ./tracing.ts) `traced`
 *   costs one global lookup and calls `run` directly: no span object, no
 *   context switch.
 * - With tracing on, the span is the active context while `run` runs, so the
 *   PostgreSQL spans of its queries (instrumentation-pg) are its children; a
 *   throw is recorded (its type only, ./redact.ts) and rethrown unchanged.
 * - The on/off flag is a process global (`Symbol.for`), so the copy of this
 *   module inside Next.js's server bundle sees what the entry point decided.
 * Not guaranteed: attributes are the caller's; only what ./redact.ts allows
 * is ever exported.
 */
import { type Attributes, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

const TRACING_ON = Symbol.for('leaseboard.tracing.on');
const TRACER = 'leaseboard';

type Flagged = { [TRACING_ON]?: boolean };

export function tracingOn(): boolean {
  return (globalThis as Flagged)[TRACING_ON] === true;
}

export function setTracingOn(on: boolean): void {
  (globalThis as Flagged)[TRACING_ON] = on;
}

export interface TracedOptions<T> {
  kind?: SpanKind;
  /** Attributes learnt from the result (a response's status, a batch's outcome). */
  resultAttributes?: (value: T) => Attributes;
}

function ended<T>(span: Span, value: T, resultAttributes?: (value: T) => Attributes): T {
  if (resultAttributes) span.setAttributes(resultAttributes(value));
  span.end();
  return value;
}

function failed(span: Span, error: unknown): never {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
  throw error;
}

/** Runs `run` inside a span named `name` when tracing is on; otherwise just runs it. */
export function traced<T>(name: string, attributes: Attributes, run: () => Promise<T>, options: TracedOptions<T> = {}): Promise<T> {
  if (!tracingOn()) return run();
  return trace.getTracer(TRACER).startActiveSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes }, (span) =>
    new Promise<T>((resolve) => resolve(run())).then(
      (value) => ended(span, value, options.resultAttributes),
      (error: unknown) => failed(span, error),
    ),
  );
}

/** `traced` for synchronous work (the projection): the span covers exactly `run`. */
export function tracedSync<T>(name: string, attributes: Attributes, run: () => T): T {
  if (!tracingOn()) return run();
  return trace.getTracer(TRACER).startActiveSpan(name, { attributes }, (span) => {
    let value: T;
    try {
      value = run();
    } catch (error) {
      failed(span, error);
    }
    return ended(span, value);
  });
}

export { SpanKind };
