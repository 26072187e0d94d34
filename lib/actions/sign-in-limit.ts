/**
 * A limit on failed sign-ins with the operator token: guessing it gets
 * `failures` tries per `windowS` for one name typed from one client, and ten
 * times that for one client whatever names it types; then 429 with
 * Retry-After until the window passes. Every failure is logged — with a
 * stand-in for the client (lib/http/client-key.ts `clientTag`), never the
 * token, the typed name or the address.
 *
 * Guarantees
 * - Atomic: an attempt spends its point BEFORE the token is compared
 *   (`attempt`), and a sign-in that succeeds gives it back, so parallel
 *   guesses cannot all pass a check made before any of them failed.
 * - A neighbour behind the same address (every loopback client is one) who
 *   fails under another name spends only that name's budget and the wider
 *   per-client one: the operator's own name keeps its tries until the
 *   neighbour has failed `failures × 10` times.
 * In memory, per process (rate-limiter-flexible). Not guaranteed: a limit
 * across several dashboard instances, or against a client that controls many
 * addresses (IPv6 is grouped by /64: lib/http/client-key.ts).
 */
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { clientTag } from '../http/client-key';
import { retryAfterSeconds } from '../http/retry-after';

/** Whose budgets an attempt spends: the client (lib/http/client-key.ts) and the name it typed. */
interface SignInAttempt {
  client: string;
  name: string;
}

export interface SignInLimiter {
  /** Spends one attempt; seconds until this client may try again when it has none left (nothing spent), else null. */
  attempt(who: SignInAttempt): Promise<number | null>;
  /** The attempt signed in: its points are given back. */
  succeeded(who: SignInAttempt): Promise<void>;
  /** Logs a failed attempt (its points are already spent). */
  failed(who: SignInAttempt, why: string): Promise<void>;
}

export const SIGN_IN_FAILURES = { failures: 10, windowS: 600 } as const;
/** One client's failures over all the names it types, as a multiple of one name's. */
const PER_CLIENT_FACTOR = 10;

const nameKey = (who: SignInAttempt) => `${who.client}\u0000${who.name.trim().toLowerCase()}`;

const waitS = (refused: unknown): number => {
  if (refused instanceof RateLimiterRes) return retryAfterSeconds(refused);
  throw refused;
};

export function signInLimiter(log: (line: string) => void, limit: { failures: number; windowS: number } = SIGN_IN_FAILURES): SignInLimiter {
  const perName = new RateLimiterMemory({ points: limit.failures, duration: limit.windowS });
  const perClient = new RateLimiterMemory({ points: limit.failures * PER_CLIENT_FACTOR, duration: limit.windowS });
  return {
    async attempt(who) {
      try {
        await perClient.consume(who.client);
      } catch (refused) {
        return waitS(refused);
      }
      try {
        await perName.consume(nameKey(who));
        return null;
      } catch (refused) {
        await perClient.reward(who.client);
        return waitS(refused);
      }
    },
    async succeeded(who) {
      await perClient.reward(who.client);
      await perName.reward(nameKey(who));
    },
    async failed(who, why) {
      const count = (await perName.get(nameKey(who)))?.consumedPoints ?? 0;
      log(
        `auth: sign-in refused (${why}) for ${clientTag(who.client)}: failure ${count} of ${limit.failures} allowed in ${limit.windowS} s${count >= limit.failures ? '; further attempts refused (429) until the window passes' : ''}`,
      );
    },
  };
}
