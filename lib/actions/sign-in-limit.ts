/**
 * A per-client limit on failed sign-ins: guessing the operator token from one
 * client gets `failures` tries per `windowS`, then 429 with Retry-After until
 * the window passes. Every failure is logged — with a stand-in for the client
 * (lib/http/client-key.ts `clientTag`), never the token, the typed name or
 * the address.
 *
 * Guarantees: in memory, per process (rate-limiter-flexible). Not guaranteed:
 * a limit across several dashboard instances, or against a client that
 * controls many addresses (IPv6 is grouped by /64: lib/http/client-key.ts).
 */
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { clientTag } from '../http/client-key';

export interface SignInLimiter {
  /** Seconds until this client may try again, or null when it may now. */
  blockedFor(clientKey: string): Promise<number | null>;
  /** Counts a failure and logs it. */
  failed(clientKey: string, why: string): Promise<void>;
}

export const SIGN_IN_FAILURES = { failures: 10, windowS: 600 } as const;

export function signInLimiter(log: (line: string) => void, limit: { failures: number; windowS: number } = SIGN_IN_FAILURES): SignInLimiter {
  const limiter = new RateLimiterMemory({ points: limit.failures, duration: limit.windowS });
  return {
    async blockedFor(clientKey) {
      const state = await limiter.get(clientKey);
      return state !== null && state.remainingPoints <= 0 ? Math.max(1, Math.ceil(state.msBeforeNext / 1000)) : null;
    },
    async failed(clientKey, why) {
      const state = await limiter.penalty(clientKey, 1);
      const count = state.consumedPoints;
      log(
        `auth: sign-in refused (${why}) for ${clientTag(clientKey)}: failure ${count} of ${limit.failures} allowed in ${limit.windowS} s${count >= limit.failures ? '; further attempts refused (429) until the window passes' : ''}`,
      );
    },
  };
}
