/**
 * Retry-After from a rate limiter's refusal (rate-limiter-flexible): the
 * whole seconds until the client's budget has room again, rounded up and at
 * least 1 — a client told 0 would retry at once and be refused again.
 */
import type { RateLimiterRes } from 'rate-limiter-flexible';

export function retryAfterSeconds(refusal: RateLimiterRes): number {
  return Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
}
