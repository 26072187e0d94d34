/**
 * Refused bearer tokens, per client — report tokens at the ingest, service
 * tokens at the access check, one budget each: a client that presents
 * `failures` bad tokens (none, malformed, unknown, revoked, another
 * scheduler's) within `windowS` is refused (429 with Retry-After) before its
 * token is looked up, its body read or a connection taken, until the window
 * passes — so a flood of made-up tokens cannot take the database's few
 * connections from the programs and scripts whose tokens are real.
 * Every attempt spends a point BEFORE its token is looked up, and a proven
 * token gives it back: checking first and counting after the lookup let
 * 5,000 concurrent made-up tokens all pass the check before the first
 * failure was counted. So at most `failures` unproven tokens of one client
 * are looked up per window, however many arrive at once; a program's
 * requests, each proven, never spend its budget (unless it sends more than
 * `failures` at the same instant).
 *
 * Logged in aggregate: at the end of each interval, one line per client that
 * was refused — how many, and whether it is now held at 429 — with
 * lib/http/client-key.ts's opaque tag, never the token, the address or a
 * user's name. One line per client per interval, however big the flood.
 *
 * Guarantees: in memory, per process (rate-limiter-flexible); the checks
 * touch no database. Not guaranteed: a limit across several dashboard
 * processes; fairness between programs behind one address (they share its
 * budget; name the proxy in LEASEBOARD_FORWARDED_FOR_PROXIES so each client
 * is told apart).
 */
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { clientTag } from './client-key';
import { retryAfterSeconds } from './retry-after';

const TOKEN_FAILURES = { failures: 20, windowS: 60 } as const;
/** How often the aggregate is logged. */
const REFUSAL_LOG_INTERVAL_MS = 60_000;

export interface TokenRefusals {
  /** Spends a point of this client's budget: null, go ahead; else the seconds until it may try again (counted as refused unread). */
  attempt(clientKey: string): Promise<number | null>;
  /** The token was proven: the attempt's point comes back. */
  proven(clientKey: string): Promise<void>;
  /** Counts a refused token (401) for the log; its point stays spent. */
  failed(clientKey: string): void;
  /** Logs the interval's counts now and starts a new interval. */
  flush(): void;
  /** Stops the interval timer (the counts are flushed). */
  close(): void;
}

/** `what` names the token in the log: `report` (a report token), `service token`. */
export function tokenRefusals(
  what: string,
  log: (line: string) => void = (line) => console.warn(line),
  limit: { failures: number; windowS: number } = TOKEN_FAILURES,
  intervalMs = REFUSAL_LOG_INTERVAL_MS,
): TokenRefusals {
  const limiter = new RateLimiterMemory({ points: limit.failures, duration: limit.windowS });
  /** This interval's counts per client key (bounded by the clients seen in one interval). */
  let counts = new Map<string, { refused: number; blocked: number }>();
  const count = (key: string) => {
    let entry = counts.get(key);
    if (entry === undefined) counts.set(key, (entry = { refused: 0, blocked: 0 }));
    return entry;
  };
  const flush = () => {
    const interval = counts;
    counts = new Map();
    for (const [key, { refused, blocked }] of interval) {
      const total = refused + blocked;
      log(
        `${what}: ${total} refused ${what} request${total === 1 ? '' : 's'} from ${clientTag(key)} in the last ${Math.round(intervalMs / 1000)} s (${refused} with a bad token, ${blocked} refused unread: more than ${limit.failures} bad tokens in ${limit.windowS} s)`,
      );
    }
  };
  const timer = setInterval(flush, intervalMs);
  timer.unref();
  return {
    async attempt(clientKey) {
      try {
        await limiter.consume(clientKey);
        return null;
      } catch (refusal) {
        if (!(refusal instanceof RateLimiterRes)) throw refusal;
        count(clientKey).blocked += 1;
        return retryAfterSeconds(refusal);
      }
    },
    async proven(clientKey) {
      await limiter.reward(clientKey, 1);
    },
    failed(clientKey) {
      count(clientKey).refused += 1;
    },
    flush,
    close() {
      clearInterval(timer);
      flush();
    },
  };
}
