// The spliced gzip member (./spliced-gzip.ts): for random pages and nonces,
// the answer gunzips to exactly the page with that response's nonce, and no
// two answers share a nonce; the CRC combination matches zlib's CRC-32.
import { randomBytes } from 'node:crypto';
import { crc32, gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32Combine } from '../http/crc32-combine';
import { gzipWith, plainWith, splicePage } from './spliced-gzip';

/** mulberry32: reproducible pseudo-random numbers in [0, 1). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const nonce = () => randomBytes(16).toString('base64');
const ALPHABET = ['<script nonce="', '">', 'self.__next_f.push([1,"', '<div class="row">', 'sched-00042', ' ', 'é', '日本', '\n', '0123456789', 'zz'];

/** A page of `pieces` random fragments with `rendering` inserted at random places (at the edges and twice in a row too). */
function page(random: () => number, pieces: number, rendering: string): string {
  let body = random() < 0.3 ? rendering : '';
  for (let i = 0; i < pieces; i++) {
    body += ALPHABET[Math.floor(random() * ALPHABET.length)]!;
    if (random() < 0.05) body += rendering;
    if (random() < 0.01) body += rendering + rendering;
  }
  return random() < 0.3 ? body + rendering : body;
}

describe('spliced gzip', () => {
  it('gunzips to exactly the page with each response’s nonce, for random pages and nonces', () => {
    const random = prng(20261202);
    for (let round = 0; round < 100; round++) {
      const rendering = nonce();
      const body = page(random, Math.floor(random() * (round % 20 === 0 ? 8_000 : 800)), rendering);
      const spliced = splicePage(body, rendering);
      const [a, b] = [nonce(), nonce()];
      const answerA = gunzipSync(gzipWith(spliced, a)).toString('utf8');
      const answerB = gunzipSync(gzipWith(spliced, b)).toString('utf8');
      expect(answerA).toBe(body.split(rendering).join(a));
      expect(answerB).toBe(body.split(rendering).join(b));
      expect(plainWith(spliced, a).toString('utf8')).toBe(answerA);
      // A nonce is never sent twice: neither the rendering's nor another answer's.
      for (const [answer, own, other] of [
        [answerA, a, b],
        [answerB, b, a],
      ] as const) {
        expect(answer.includes(rendering)).toBe(false);
        expect(answer.includes(other)).toBe(false);
        expect(answer.split(own).length).toBe(body.split(rendering).length);
      }
    }
  });

  it('holds for an empty page, a page that is only the nonce, a page without it, and parts over 64 KB', () => {
    const rendering = nonce();
    const big = 'x'.repeat(70_000) + randomBytes(100_000).toString('hex');
    for (const body of ['', rendering, rendering + rendering, 'no nonce here', `${big}${rendering}${big}`]) {
      const fresh = nonce();
      expect(gunzipSync(gzipWith(splicePage(body, rendering), fresh)).toString('utf8')).toBe(body.split(rendering).join(fresh));
    }
  });

  it('compresses about as well as gzipping the whole page, with a few dozen nonces in it (script tags), as the overview has', () => {
    const rendering = nonce();
    const random = prng(7);
    const fragments = page(random, 60_000, '').match(/[^]{1,12000}/g)!;
    const body = fragments.map((fragment) => `<script nonce="${rendering}">${fragment}</script>`).join('');
    const whole = gzipSync(body.split(rendering).join('n'.repeat(24))).length;
    const spliced = gzipWith(splicePage(body, rendering), nonce()).length;
    expect(spliced).toBeLessThan(whole * 1.1);
  });

  it('a value of another length than the rendering’s still gives the exact page (gzipped whole)', () => {
    const rendering = nonce();
    const body = `<script nonce="${rendering}">a</script>`.repeat(50);
    for (const value of ['short', `${nonce()}${nonce()}`])
      expect(gunzipSync(gzipWith(splicePage(body, rendering), value)).toString('utf8')).toBe(body.split(rendering).join(value));
  });

  it('refuses an empty value to splice at', () => {
    expect(() => splicePage('abc', '')).toThrow(/must not be empty/);
  });

  it('crc32Combine(crc(a), crc(b), |b|) is crc(a ‖ b), for random lengths up to 1 MB', () => {
    const random = prng(99);
    for (let i = 0; i < 300; i++) {
      const a = randomBytes(Math.floor(random() * 2000));
      const b = randomBytes(Math.floor(random() * (i % 50 === 0 ? 1_000_000 : 3000)));
      expect(crc32Combine(crc32(a), crc32(b), b.length)).toBe(crc32(Buffer.concat([a, b])));
    }
  });
});
