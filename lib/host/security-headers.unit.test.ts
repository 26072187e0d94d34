import { describe, expect, it } from 'vitest';
import { API_CONTENT_SECURITY_POLICY, securityHeadersFor } from './security-headers';

describe('security headers', () => {
  it('a page gets a nonce CSP without unsafe-inline scripts, framing denied, and the common headers', () => {
    const { response, pagePolicy } = securityHeadersFor('/ops/leaseboard/schedulers/x', '/ops/leaseboard', 'bm9uY2U=', { dev: false });
    expect(pagePolicy).toBe(response['content-security-policy']);
    const scriptSrc = pagePolicy!.split('; ').find((d) => d.startsWith('script-src'))!;
    expect(scriptSrc).toContain("'nonce-bm9uY2U='");
    expect(scriptSrc).not.toContain('unsafe-inline');
    expect(scriptSrc).not.toContain('unsafe-eval');
    expect(pagePolicy).toContain("frame-ancestors 'none'");
    expect(response).toMatchObject({ 'x-content-type-options': 'nosniff', 'referrer-policy': 'same-origin', 'x-frame-options': 'DENY' });
    expect(response['permissions-policy']).toMatch(/camera=\(\)/);
  });

  it('development allows eval (React dev tooling), never inline scripts', () => {
    const { pagePolicy } = securityHeadersFor('/', '', 'n', { dev: true });
    expect(pagePolicy).toContain("'unsafe-eval'");
    expect(pagePolicy).not.toContain("'unsafe-inline' 'strict");
  });

  it('an API response gets a policy that allows nothing; static files get the common headers only', () => {
    const api = securityHeadersFor('/api/v1/schedulers', '', 'n', { dev: false });
    expect(api.pagePolicy).toBeNull();
    expect(api.response['content-security-policy']).toBe(API_CONTENT_SECURITY_POLICY);
    const asset = securityHeadersFor('/b/_next/static/chunks/x.js', '/b', 'n', { dev: false });
    expect(asset.pagePolicy).toBeNull();
    expect(asset.response['content-security-policy']).toBeUndefined();
    expect(asset.response['x-content-type-options']).toBe('nosniff');
  });
});
