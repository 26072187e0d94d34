/**
 * Request bodies, bounded: read at most a route's limit, within a deadline,
 * and never more.
 *
 * Guarantees
 * - A `Content-Length` over the limit is refused before a byte is read (413
 *   `too_large`); one that is not a whole number is refused (400).
 * - Otherwise the body is streamed and counted: past the limit reading stops
 *   at once — nothing further is taken from the stream, whose backpressure
 *   then stops the socket — and the answer is 413. A body that has not
 *   arrived within `deadlineMs` (a slow or stalled sender) is left the same
 *   way: 408 `body_timeout`. The stream is not cancelled: in Next.js that
 *   destroys the socket before the refusal could be sent; the server closes
 *   the connection after the answer instead (./request-limits.ts).
 * - Bytes that are not UTF-8 are refused (400), never decoded lossily; JSON
 *   that does not parse is refused (400).
 * - Works on a web `Request` (Next.js route handlers) and, through
 *   `nodeBodyStream`, on a node `IncomingMessage` (the demo's archive), which pulls
 *   one chunk at a time (and pauses the request if cancelled).
 * Not guaranteed: that the connection is closed — the HTTP server decides
 * (lib/host/dashboard-server.ts closes it after a refusal of an unread body).
 */

import type { IncomingMessage } from 'node:http';

export interface BodyLimit {
  maxBytes: number;
  /** How long the whole body may take to arrive. Default 10 s. */
  deadlineMs?: number;
}

type BodyRefusal = { status: 400 | 408 | 413; code: 'invalid_body' | 'body_timeout' | 'too_large'; message: string };

export type BodyRead<T> = { ok: true; value: T } | { ok: false; refusal: BodyRefusal };

const DEFAULT_BODY_DEADLINE_MS = 10_000;

const tooLarge = (maxBytes: number): BodyRefusal => ({ status: 413, code: 'too_large', message: `body larger than ${maxBytes} bytes` });

/** Reads a body of at most `limit.maxBytes` bytes as text. */
export async function readBoundedText(body: ReadableStream<Uint8Array> | null, contentLength: string | null, limit: BodyLimit): Promise<BodyRead<string>> {
  if (contentLength !== null) {
    if (!/^\d{1,15}$/.test(contentLength.trim()))
      return { ok: false, refusal: { status: 400, code: 'invalid_body', message: 'Content-Length is not a whole number' } };
    if (Number(contentLength) > limit.maxBytes) return { ok: false, refusal: tooLarge(limit.maxBytes) };
  }
  if (body === null) return { ok: true, value: '' };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), limit.deadlineMs ?? DEFAULT_BODY_DEADLINE_MS)));
  try {
    for (;;) {
      const read = reader.read();
      read.catch(() => {}); // left pending when the deadline wins; released below
      const next = await Promise.race([read, timedOut]);
      if (next === 'timeout') {
        return {
          ok: false,
          refusal: { status: 408, code: 'body_timeout', message: `body not received within ${limit.deadlineMs ?? DEFAULT_BODY_DEADLINE_MS} ms` },
        };
      }
      if (next.done) break;
      size += next.value.byteLength;
      if (size > limit.maxBytes) return { ok: false, refusal: tooLarge(limit.maxBytes) };
      chunks.push(next.value);
    }
  } finally {
    clearTimeout(timer);
    reader.releaseLock();
  }
  try {
    return { ok: true, value: new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks)) };
  } catch {
    return { ok: false, refusal: { status: 400, code: 'invalid_body', message: 'body is not UTF-8' } };
  }
}

/** Reads a bounded body and parses it as JSON. */
export async function readBoundedJson(body: ReadableStream<Uint8Array> | null, contentLength: string | null, limit: BodyLimit): Promise<BodyRead<unknown>> {
  const text = await readBoundedText(body, contentLength, limit);
  if (!text.ok) return text;
  try {
    return { ok: true, value: JSON.parse(text.value) as unknown };
  } catch {
    return { ok: false, refusal: { status: 400, code: 'invalid_body', message: 'body is not valid JSON' } };
  }
}

/** The same for a web Request: its body and Content-Length. */
export function readRequestJson(request: Request, limit: BodyLimit): Promise<BodyRead<unknown>> {
  return readBoundedJson(request.body, request.headers.get('content-length'), limit);
}

/** A node request's body as a web stream that pulls one chunk at a time; cancelling pauses the request (never destroys its socket). */
export function nodeBodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let cancelled = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        req.pause();
        req.on('data', (chunk: Buffer) => {
          if (cancelled) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          req.pause();
        });
        req.once('end', () => !cancelled && controller.close());
        req.once('error', (error) => !cancelled && controller.error(error));
      },
      pull() {
        req.resume();
      },
      cancel() {
        cancelled = true;
        req.pause();
      },
    },
    { highWaterMark: 0 },
  );
}
