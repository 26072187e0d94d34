// One setting for the dashboard's public URL; the two it replaces are deprecated aliases.
import { describe, expect, it } from 'vitest';
import { parsePublicUrl, PublicUrlError } from './public-url';

describe('the public URL', () => {
  it('given LEASEBOARD_PUBLIC_URL, then links, origin and Secure all follow it', () => {
    expect(parsePublicUrl({ LEASEBOARD_PUBLIC_URL: 'https://ops.example.org/leaseboard/' })).toEqual({
      url: 'https://ops.example.org/leaseboard',
      origin: 'https://ops.example.org',
      secure: true,
      variable: 'LEASEBOARD_PUBLIC_URL',
      warnings: [],
    });
    expect(parsePublicUrl({})).toBeNull();
  });

  it('given only a deprecated alias, then it is used, with a warning naming the new setting', () => {
    expect(parsePublicUrl({ LEASEBOARD_EXTERNAL_URL: 'http://board:3921/x' })).toMatchObject({
      url: 'http://board:3921/x',
      secure: false,
      warnings: [expect.stringMatching(/LEASEBOARD_EXTERNAL_URL is deprecated: set LEASEBOARD_PUBLIC_URL/)],
    });
    expect(parsePublicUrl({ LEASEBOARD_PUBLIC_ORIGIN: 'https://board.example.org', LEASEBOARD_BASE_PATH: '/ops' })).toMatchObject({
      url: 'https://board.example.org/ops',
      warnings: [expect.stringMatching(/LEASEBOARD_PUBLIC_ORIGIN is deprecated/)],
    });
  });

  it('given the new setting beside an alias, then the alias is ignored, with a warning', () => {
    const url = parsePublicUrl({ LEASEBOARD_PUBLIC_URL: 'https://a.example', LEASEBOARD_EXTERNAL_URL: 'https://b.example' });
    expect(url).toMatchObject({ url: 'https://a.example', warnings: [expect.stringMatching(/LEASEBOARD_EXTERNAL_URL is deprecated and ignored/)] });
  });

  it.each([
    [{ LEASEBOARD_PUBLIC_URL: 'board.example.org' }, 'LEASEBOARD_PUBLIC_URL', /absolute/],
    [{ LEASEBOARD_PUBLIC_URL: 'https://user:hunter2@board.example.org' }, 'LEASEBOARD_PUBLIC_URL', /credentials/],
    [{ LEASEBOARD_PUBLIC_URL: 'https://board.example.org/?x=1' }, 'LEASEBOARD_PUBLIC_URL', /query/],
    [{ LEASEBOARD_EXTERNAL_URL: 'https://a.example', LEASEBOARD_PUBLIC_ORIGIN: 'https://b.example' }, 'LEASEBOARD_PUBLIC_ORIGIN', /another origin/],
  ])('given %o, then it is refused naming %s', (env, variable, message) => {
    let error: unknown;
    try {
      parsePublicUrl(env);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(PublicUrlError);
    expect((error as PublicUrlError).variable).toBe(variable);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('hunter2');
  });
});
