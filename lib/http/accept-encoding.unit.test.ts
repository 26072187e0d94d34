// Accept-Encoding (./accept-encoding.ts): which clients get a gzipped answer.
import { describe, expect, it } from 'vitest';
import { acceptsGzip } from './accept-encoding';

describe('acceptsGzip', () => {
  it.each([
    ['gzip', true], // a Prometheus scrape (enable_compression: true, the default)
    ['gzip, deflate, br', true], // a browser
    ['gzip, deflate, br, zstd', true],
    ['GZIP;q=0.5', true],
    ['x-gzip', true],
    ['*', true],
    ['br;q=1, *;q=0.1', true],
    [['deflate', 'gzip'], true],
  ] as const)('%j → gzip', (header, expected) => expect(acceptsGzip(header as string | string[])).toBe(expected));

  it.each([
    [undefined, false],
    [null, false],
    ['', false],
    ['identity', false], // a Prometheus scrape with enable_compression: false
    ['br, deflate', false],
    ['gzip;q=0', false],
    ['gzip;q=0.000', false],
    ['*, gzip;q=0', false],
    ['*;q=0', false],
    ['gzip;q=nope', false],
    ['gzip;q=2', false],
    ['gzipped', false],
  ] as const)('%j → plain', (header, expected) => expect(acceptsGzip(header)).toBe(expected));
});
