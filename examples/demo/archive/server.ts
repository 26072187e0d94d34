/**
 * The archive: an example EXTERNAL resource that enforces fencing tokens
 * itself — a small HTTP store of JSON documents per lease and key, run as its
 * own process (./cli.ts). The retention planner exports each occurrence's
 * plan summary here as an `external` step (../retention-planner).
 *
 * What an external system must do to honour the token
 * 1. Take the lease and its epoch with every write (here: the path's lease,
 *    the `Leaseboard-Epoch` header) and refuse a write without them (400).
 * 2. Keep, per lease, the highest epoch it has accepted — in the same store as
 *    the data, changed in the same atomic step as the write it guards.
 * 3. Refuse any write whose epoch is lower than that (409 `stale_epoch`, with
 *    the highest epoch); accept an equal or higher one and raise the highest.
 * 4. Compare and store with nothing in between (no await, no lock released,
 *    no other request served): here one synchronous block.
 * 5. Treat a repeat of an accepted write (same key, epoch and idempotency key)
 *    as a repeat: answer as before, change nothing.
 * 6. Take epochs only from authenticated writers: an epoch is a claim, and a
 *    process that may claim any epoch can raise the highest to one no holder
 *    reaches (every real write then gets 409) or overwrite any object. Here
 *    every PUT needs `Authorization: Bearer <token>`, the token the archive
 *    and its writers share (LEASEBOARD_ARCHIVE_TOKEN; 401 otherwise); reads
 *    change nothing and need none.
 * What the runtime does with a target that cannot: it refuses to define the
 * job (lib/scheduler/job.ts) — an idempotency key stops duplicates, not a
 * stale holder's different write.
 *
 * Guarantees (while this process runs): no write with an epoch lower than
 * one already accepted for its lease is ever stored; each key holds the data
 * of the highest epoch that wrote it; no write without the token is stored.
 * No request can end the process: a path that does not decode is 400, and a
 * failure while answering is 500. Bounded: at most MAX_KEYS_PER_LEASE keys
 * per lease (the oldest written is evicted) and MAX_BODY_BYTES a body
 * (lib/http/body.ts: refused on Content-Length, else read no further).
 * Not guaranteed: memory only — a restart forgets the highest epochs (rule 2
 * says a real one must persist them). A stale write that arrives before the
 * new holder's first write is accepted: the target cannot know of an epoch it
 * has not seen; the new holder's write then supersedes it.
 */
import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { nodeBodyStream, readBoundedJson } from '../../../lib/http/body';
import { applyServerLimits, refuseEarly, SERVER_OPTIONS } from '../../../lib/http/request-limits';

export const MAX_BODY_BYTES = 64 * 1024;
/** The writers' bearer token: at least this long (the CLI refuses to start otherwise). */
export const ARCHIVE_TOKEN_MIN_LENGTH = 24;
export const MAX_KEYS_PER_LEASE = 10_000;
const NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;
const KEY = /^[A-Za-z0-9@:._/-]{1,200}$/;

export interface StoredObject {
  key: string;
  epoch: number;
  idempotencyKey: string | null;
  writtenAt: string;
  body: unknown;
}

export type Decision =
  | { kind: 'accepted'; lease: string; key: string; epoch: number; replay: boolean }
  | { kind: 'rejected'; lease: string; key: string; epoch: number; highestEpoch: number };

interface LeaseState {
  highestEpoch: number;
  objects: Map<string, StoredObject>;
}

/** The archive's state and its one rule; no I/O (the HTTP layer is below). */
export class Archive {
  private readonly leases = new Map<string, LeaseState>();
  readonly stats = { accepted: 0, rejected: 0, replays: 0 };

  /** Stores `body` under (lease, key) if `epoch` is at least the highest seen for the lease. Synchronous: check and store are one step. */
  put(lease: string, key: string, epoch: number, idempotencyKey: string | null, body: unknown, now = new Date()): Decision {
    const state = this.leases.get(lease) ?? { highestEpoch: 0, objects: new Map() };
    if (epoch < state.highestEpoch) {
      this.stats.rejected++;
      return { kind: 'rejected', lease, key, epoch, highestEpoch: state.highestEpoch };
    }
    const existing = state.objects.get(key);
    if (existing && idempotencyKey !== null && existing.epoch === epoch && existing.idempotencyKey === idempotencyKey) {
      this.stats.replays++;
      return { kind: 'accepted', lease, key, epoch, replay: true };
    }
    state.highestEpoch = epoch;
    state.objects.delete(key); // re-insert: Map order is write order, oldest first
    state.objects.set(key, { key, epoch, idempotencyKey, writtenAt: now.toISOString(), body });
    if (state.objects.size > MAX_KEYS_PER_LEASE) state.objects.delete(state.objects.keys().next().value!);
    this.leases.set(lease, state);
    this.stats.accepted++;
    return { kind: 'accepted', lease, key, epoch, replay: false };
  }

  get(lease: string, key: string): StoredObject | null {
    return this.leases.get(lease)?.objects.get(key) ?? null;
  }

  list(lease: string): { highestEpoch: number; objects: Omit<StoredObject, 'body'>[] } {
    const state = this.leases.get(lease);
    return {
      highestEpoch: state?.highestEpoch ?? 0,
      objects: [...(state?.objects.values() ?? [])].map(({ key, epoch, idempotencyKey, writtenAt }) => ({ key, epoch, idempotencyKey, writtenAt })),
    };
  }
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

const failure = (code: string, message: string, extra: object = {}) => ({ error: { code, message }, ...extra });

/** Whether the request carries the writers' bearer token (constant time for equal lengths). */
function authorized(req: http.IncomingMessage, token: string): boolean {
  const given = Buffer.from(req.headers.authorization ?? '');
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function decodedParts(pathname: string): string[] | null {
  try {
    return pathname
      .split('/')
      .filter(Boolean)
      .map((part) => decodeURIComponent(part));
  } catch {
    return null;
  }
}

/**
 * HTTP on top of an Archive:
 * PUT /v1/leases/{lease}/objects/{key} (headers Authorization: Bearer <token>, Leaseboard-Epoch, optional
 * Idempotency-Key; JSON body) → 200 { stored, replay } | 409 { error: stale_epoch, highestEpoch } | 400 | 401 | 408 | 413;
 * GET /v1/leases/{lease}/objects[/{key}]; GET /v1/stats; GET /healthz.
 */
export function createArchiveServer(archive: Archive, options: { token: string }, onDecision: (decision: Decision) => void = () => {}): http.Server {
  const server = http.createServer(SERVER_OPTIONS, (req, res) => {
    answer(archive, options.token, req, res, onDecision).catch((error: unknown) => {
      process.stderr.write(`archive: a request failed: ${error instanceof Error ? error.message : String(error)}\n`);
      if (res.headersSent) res.destroy();
      else send(res, 500, failure('internal', 'internal error in the archive'));
    });
  });
  applyServerLimits(server);
  return server;
}

async function answer(archive: Archive, token: string, req: http.IncomingMessage, res: http.ServerResponse, onDecision: (decision: Decision) => void) {
  if (refuseEarly(req, res)) return;
  const url = new URL(req.url ?? '/', 'http://archive');
  const parts = decodedParts(url.pathname);
  if (parts === null) return send(res, 400, failure('bad_path', 'the path is not valid percent-encoding'));
  if (req.method === 'GET' && url.pathname === '/healthz') return send(res, 200, { ok: true });
  if (req.method === 'GET' && url.pathname === '/v1/stats') return send(res, 200, archive.stats);
  if (parts[0] !== 'v1' || parts[1] !== 'leases' || parts[3] !== 'objects' || parts.length < 4 || parts.length > 5) {
    return send(res, 404, failure('not_found', 'no such route'));
  }
  const lease = parts[2]!;
  const key = parts[4];
  if (!NAME.test(lease)) return send(res, 400, failure('bad_lease', 'lease: lowercase letters, digits, dashes'));
  if (key !== undefined && !KEY.test(key)) return send(res, 400, failure('bad_key', 'key: 1–200 of A-Z a-z 0-9 @ : . _ / -'));
  if (req.method === 'GET') {
    if (key === undefined) return send(res, 200, { lease, ...archive.list(lease) });
    const found = archive.get(lease, key);
    return found ? send(res, 200, { lease, ...found }) : send(res, 404, failure('not_found', 'no such key'));
  }
  if (req.method !== 'PUT' || key === undefined) return send(res, 405, failure('method_not_allowed', 'PUT an object, or GET'));
  if (!authorized(req, token)) return send(res, 401, failure('unauthorized', 'a write needs the bearer token the archive shares with its writers'));
  const epochHeader = req.headers['leaseboard-epoch'];
  // Epochs are below 2^53 (lib/status/epoch.ts): a generation's epochs run to 16 digits.
  const epoch = typeof epochHeader === 'string' && /^\d{1,16}$/.test(epochHeader) && Number.isSafeInteger(Number(epochHeader)) ? Number(epochHeader) : 0;
  if (epoch < 1) return send(res, 400, failure('bad_epoch', "Leaseboard-Epoch: the writer's epoch, a positive integer"));
  const idempotencyHeader = req.headers['idempotency-key'];
  const idempotencyKey = typeof idempotencyHeader === 'string' && idempotencyHeader.length > 0 ? idempotencyHeader.slice(0, 300) : null;
  const body = await readBoundedJson(nodeBodyStream(req), req.headers['content-length'] ?? null, { maxBytes: MAX_BODY_BYTES });
  if (!body.ok) return send(res, body.refusal.status, failure(body.refusal.code, body.refusal.message));
  const decision = archive.put(lease, key, epoch, idempotencyKey, body.value);
  onDecision(decision);
  if (decision.kind === 'rejected') {
    return send(
      res,
      409,
      failure('stale_epoch', `epoch ${epoch} is older than ${decision.highestEpoch}, the highest seen for ${lease}`, { highestEpoch: decision.highestEpoch }),
    );
  }
  return send(res, 200, { stored: { lease, key, epoch }, replay: decision.replay });
}
