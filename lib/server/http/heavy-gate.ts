/**
 * Per-client rate limit for heavy reads (detail, history, audit, alerts, and
 * the pages that render them: lib/host/front-door.ts): a client
 * that sends a burst gets 429 with Retry-After instead of a queue, so one
 * dashboard left polling history, or a script, cannot take the heavy reads'
 * connections from everyone else. (List, metrics and healthz are never
 * limited here: they share one cached read, ../service.ts.)
 *
 * Guarantees: at most `points` heavy reads per client per `durationS` window
 * (rate-limiter-flexible, in memory, per process); the refusal says when to
 * retry. A client is who lib/http/client-key.ts says: the SSO user, else the
 * address a configured proxy forwarded for (X-Forwarded-For), else the peer;
 * IPv6 grouped by /64. Not guaranteed: a limit across several
 * status-service processes.
 */
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { clientKey } from '../../http/client-key';
import type { ProxyTrust } from '../../http/proxies';
import type { ServiceError } from './result';
import { retryAfterSeconds } from '../../http/retry-after';

export interface HeavyGate {
  /** null: go ahead; otherwise the 429 to answer. */
  admit(headers: Headers): Promise<ServiceError | null>;
}

export const OPEN_GATE: HeavyGate = { admit: async () => null };

export function heavyReadGate(trust: ProxyTrust, limit: { points: number; durationS: number }): HeavyGate {
  const limiter = new RateLimiterMemory({ points: limit.points, duration: limit.durationS });
  return {
    async admit(headers) {
      try {
        await limiter.consume(clientKey(trust, headers));
        return null;
      } catch (refusal) {
        if (!(refusal instanceof RateLimiterRes)) throw refusal;
        const retryAfterS = retryAfterSeconds(refusal);
        return {
          status: 429,
          code: 'rate_limited',
          message: `more than ${limit.points} detail, history or audit reads in ${limit.durationS} s from this client; retry in ${retryAfterS} s`,
          retryAfterS,
        };
      }
    },
  };
}
