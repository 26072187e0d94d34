// OpenID Connect settings and the groups → roles rule: bad values are refused
// naming the variable (never echoing the secret); the highest mapped role
// wins; an unmapped user reads only when anonymous viewing is allowed.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AuthConfigError, parseAuthConfig } from '../config';
import { groupsOf, parseRoleMapping, parseRoles, roleFor, selectorsFor } from './roles';

const BASE = {
  LEASEBOARD_PUBLIC_URL: 'https://ops.example.org/leaseboard',
  LEASEBOARD_OIDC_ISSUER: 'https://id.example.org/realms/ops',
  LEASEBOARD_OIDC_CLIENT_ID: 'leaseboard',
  LEASEBOARD_OIDC_ROLES: 'sre-admins=admin,payments=operator',
};

function refusal(env: Record<string, string>): AuthConfigError {
  try {
    parseAuthConfig(env);
  } catch (error) {
    if (error instanceof AuthConfigError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('OIDC settings', () => {
  it('derive the redirect URL from the public URL and default to anonymous viewers', () => {
    const auth = parseAuthConfig({ ...BASE, LEASEBOARD_OIDC_CLIENT_SECRET: 's3cret-value' });
    expect(auth.oidc).toMatchObject({
      clientId: 'leaseboard',
      clientSecret: 's3cret-value',
      redirectUrl: 'https://ops.example.org/leaseboard/api/v1/session/oidc/callback',
      groupsClaim: 'groups',
      refreshEveryMs: 15 * 60_000,
      scopes: 'openid profile offline_access',
      insecureIssuer: false,
    });
    expect([...auth.oidc!.roles]).toEqual([
      ['sre-admins', 'admin'],
      ['payments', 'operator'],
    ]);
    expect(auth.anonymous).toBe('viewer');
    expect(parseAuthConfig({}).oidc).toBeNull();
  });

  it('read the client secret from a file, never both ways', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'oidc-secret-')), 'secret');
    writeFileSync(file, 'from-the-file\n');
    expect(parseAuthConfig({ ...BASE, LEASEBOARD_OIDC_CLIENT_SECRET_FILE: file }).oidc!.clientSecret).toBe('from-the-file');
    const both = refusal({ ...BASE, LEASEBOARD_OIDC_CLIENT_SECRET_FILE: file, LEASEBOARD_OIDC_CLIENT_SECRET: 'do-not-echo-me' });
    expect(both.variable).toBe('LEASEBOARD_OIDC_CLIENT_SECRET_FILE');
    expect(both.message).not.toContain('do-not-echo-me');
    expect(refusal({ ...BASE, LEASEBOARD_OIDC_CLIENT_SECRET_FILE: `${file}.missing` }).variable).toBe('LEASEBOARD_OIDC_CLIENT_SECRET_FILE');
  });

  it.each([
    [{ LEASEBOARD_OIDC_ROLES: 'payments=root' }, 'LEASEBOARD_OIDC_ROLES', /viewer, operator, admin/],
    [{ LEASEBOARD_OIDC_ROLES: 'payments' }, 'LEASEBOARD_OIDC_ROLES', /group=role/],
    [{ LEASEBOARD_OIDC_ROLES: 'a=admin,a=viewer' }, 'LEASEBOARD_OIDC_ROLES', /twice/],
    [{ LEASEBOARD_OIDC_ROLES: '' }, 'LEASEBOARD_OIDC_ROLES', /at least one/],
    [{ LEASEBOARD_OIDC_ISSUER: 'http://id.example.org' }, 'LEASEBOARD_OIDC_ISSUER', /https/],
    [{ LEASEBOARD_OIDC_ISSUER: 'not a url' }, 'LEASEBOARD_OIDC_ISSUER', /absolute URL/],
    [{ LEASEBOARD_OIDC_CLIENT_ID: '' }, 'LEASEBOARD_OIDC_CLIENT_ID', /required/],
    [{ LEASEBOARD_PUBLIC_URL: '' }, 'LEASEBOARD_PUBLIC_URL', /redirect URL/],
    [{ LEASEBOARD_OIDC_GROUPS_CLAIM: 'two words' }, 'LEASEBOARD_OIDC_GROUPS_CLAIM', /claim name/],
    [{ LEASEBOARD_OIDC_REFRESH_EVERY: '2h' }, 'LEASEBOARD_OIDC_REFRESH_EVERY', /30s–1h/],
    [{ LEASEBOARD_ANONYMOUS: 'everyone' }, 'LEASEBOARD_ANONYMOUS', /viewer, none/],
  ])('refuse %j naming %s', (change, variable, problem) => {
    const error = refusal({ ...BASE, ...change });
    expect(error.variable).toBe(variable);
    expect(error.message).toMatch(problem);
  });

  it('refuse OIDC settings without the issuer', () => {
    expect(refusal({ LEASEBOARD_OIDC_ROLES: 'a=admin' }).variable).toBe('LEASEBOARD_OIDC_ROLES');
  });

  it('allow http only for a loopback issuer (a provider on this host)', () => {
    expect(parseAuthConfig({ ...BASE, LEASEBOARD_OIDC_ISSUER: 'http://127.0.0.1:9000' }).oidc!.insecureIssuer).toBe(true);
  });
});

describe('groups → roles', () => {
  const mapping = parseRoleMapping('sre-admins=admin, payments=operator,readers=viewer');

  it('gives the highest mapped role', () => {
    expect(roleFor(['payments', 'sre-admins'], mapping, false)).toBe('admin');
    expect(roleFor(['readers', 'payments'], mapping, false)).toBe('operator');
    expect(roleFor(['readers'], mapping, false)).toBe('viewer');
  });

  it('reads only for an unmapped user when anonymous viewing is allowed, no session otherwise', () => {
    expect(roleFor(['marketing'], mapping, true)).toBe('viewer');
    expect(roleFor([], mapping, false)).toBeNull();
  });

  it('limits an operator group to a selector; an unlimited operator or admin group lifts the limit', () => {
    const { roles, selectors } = parseRoles(
      'sre=admin, payments=operator[team=payments], billing=operator[team in (billing, invoices),env!=dev], ops=operator',
    );
    expect(roles.get('billing')).toBe('operator');
    expect([...selectors]).toEqual([
      ['payments', 'team=payments'],
      ['billing', 'team in (billing,invoices),env!=dev'],
    ]);
    expect(selectorsFor(['payments'], roles, selectors)).toEqual(['team=payments']);
    expect(selectorsFor(['payments', 'billing'], roles, selectors)).toEqual(['team=payments', 'team in (billing,invoices),env!=dev']);
    expect(selectorsFor(['payments', 'ops'], roles, selectors)).toBeNull();
    expect(selectorsFor(['payments', 'sre'], roles, selectors)).toBeNull();
  });

  it.each([
    ['sre=admin[team=payments]', /only an operator/],
    ['payments=operator[team in (a]', /selector/],
    ['payments=operator[]', /empty selector/],
    ['payments=operator[team=a', /unbalanced/],
    ['payments=operator[team=a],payments=operator', /twice/],
  ])('refuses %j', (raw, problem) => {
    expect(() => parseRoles(raw)).toThrow(problem);
  });

  it('takes the groups claim as a list or one string, anything else as none', () => {
    expect(groupsOf({ groups: ['a', 1, 'b'] }, 'groups')).toEqual(['a', 'b']);
    expect(groupsOf({ roles: 'a' }, 'roles')).toEqual(['a']);
    expect(groupsOf({ groups: { a: 1 } }, 'groups')).toEqual([]);
  });
});
