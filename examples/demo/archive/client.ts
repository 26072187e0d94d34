/**
 * Calls to the archive (./server.ts) as an `external` step makes them: every
 * request carries the writers' bearer token, the lease (path), the epoch
 * (`Leaseboard-Epoch`) and the idempotency key. Typed outcomes: 2xx
 * accepted, 409 rejected (with the archive's highest epoch), anything else —
 * an error status (401: a wrong token), a timeout, a lost connection —
 * unknown (the write may or may not have landed).
 */
import type { ExternalOutcome, ExternalRequest } from '../../../lib/scheduler';

const ARCHIVE_TIMEOUT_MS = 5_000;

function objectUrl(baseUrl: string, lease: string, key: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/v1/leases/${encodeURIComponent(lease)}/objects/${encodeURIComponent(key)}`;
}

/** Where the archive is, and the token its writers share (LEASEBOARD_ARCHIVE_TOKEN). */
export interface ArchiveTarget {
  url: string;
  token: string;
}

export async function putToArchive(archive: ArchiveTarget, request: ExternalRequest, key: string, body: unknown): Promise<ExternalOutcome> {
  let response: Response;
  try {
    response = await fetch(objectUrl(archive.url, request.lease, key), {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${archive.token}`,
        'content-type': 'application/json',
        'leaseboard-epoch': String(request.epoch),
        'idempotency-key': request.idempotencyKey,
      },
      body: JSON.stringify(body),
      signal: AbortSignal.any([request.signal, AbortSignal.timeout(ARCHIVE_TIMEOUT_MS)]),
    });
  } catch (error) {
    return { kind: 'unknown', cause: error };
  }
  const answer = (await response.json().catch(() => null)) as { highestEpoch?: unknown } | null;
  if (response.ok) return { kind: 'accepted' };
  if (response.status === 409) return { kind: 'rejected', currentEpoch: typeof answer?.highestEpoch === 'number' ? answer.highestEpoch : null };
  return { kind: 'unknown', cause: new Error(`archive answered ${response.status}`) };
}
