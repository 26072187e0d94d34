import { describe, expect, it } from 'vitest';
import { databaseOf, describeDatabaseUrl, parseDatabaseUrl, withCredentials } from './url';

describe('connection strings with several nodes (libpq form)', () => {
  it('gives each node an opaque id and a string of its own, without target_session_attrs', () => {
    const parsed = parseDatabaseUrl(
      'postgres://app:s3cr%40t@db-a.internal:5432,db-b.internal:5433/leases?sslmode=disable&target_session_attrs=read-write&application_name=x',
    );
    expect(parsed.target).toBe('read-write');
    expect(parsed.nodes).toEqual([
      {
        id: 'node-1',
        address: { host: 'db-a.internal', port: 5432 },
        url: 'postgres://app:s3cr%40t@db-a.internal:5432/leases?sslmode=disable&application_name=x',
      },
      {
        id: 'node-2',
        address: { host: 'db-b.internal', port: 5433 },
        url: 'postgres://app:s3cr%40t@db-b.internal:5433/leases?sslmode=disable&application_name=x',
      },
    ]);
  });

  it('reads IPv6 literals, default ports, one host, and no host at all', () => {
    expect(parseDatabaseUrl('postgresql://[::1]:6000,[fe80::2],h3/db').nodes.map((n) => n.address)).toEqual([
      { host: '::1', port: 6000 },
      { host: 'fe80::2', port: 5432 },
      { host: 'h3', port: 5432 },
    ]);
    expect(parseDatabaseUrl('postgres://u@h/db')).toMatchObject({ target: 'any', nodes: [{ id: 'node-1', url: 'postgres://u@h/db' }] });
    expect(parseDatabaseUrl('postgres:///db?host=/run/postgresql').nodes).toEqual([
      { id: 'node-1', address: null, url: 'postgres:///db?host=/run/postgresql' },
    ]);
  });

  it('refuses what it cannot read, naming it and never the password', () => {
    expect(() => parseDatabaseUrl('mysql://u:pw@h/db')).toThrow(/expected postgres:\/\//);
    expect(() => parseDatabaseUrl('postgres://u:pw@h1,/db')).toThrow(/host\[:port\]/);
    expect(() => parseDatabaseUrl('postgres://u:pw@h1:70000/db')).toThrow(/port 70000/);
    expect(() => parseDatabaseUrl('postgres://u:pw@h1/db?target_session_attrs=leader')).toThrow(/one of any, read-write/);
    for (const bad of ['postgres://u:pw@h1,/db', 'postgres://u:pw@h1/db?target_session_attrs=leader']) {
      expect(() => parseDatabaseUrl(bad)).not.toThrow(/pw/);
    }
  });

  it('describes a string without its password', () => {
    expect(describeDatabaseUrl('postgres://app:pw@h1:5432,h2:5432/db?target_session_attrs=read-write')).toBe('postgres://app@h1:5432,h2:5432/db');
    expect(describeDatabaseUrl('not a url')).toBe('(unparseable DATABASE_URL)');
  });
});

describe('credentials and database of a connection string', () => {
  it('swaps the user and password of a multi-node string, keeping every node and parameter', () => {
    const url = 'postgres://admin:secret@h1:5432,[::1]:5433/leaseboard?target_session_attrs=read-write&sslmode=disable';
    expect(withCredentials(url, 'lb_reader_x', 'p/w+?')).toBe(
      'postgres://lb_reader_x:p%2Fw%2B%3F@h1:5432,[::1]:5433/leaseboard?target_session_attrs=read-write&sslmode=disable',
    );
    expect(withCredentials('postgresql://h/db', 'u', 'p')).toBe('postgresql://u:p@h/db');
    expect(parseDatabaseUrl(withCredentials(url, 'u', 'p')).nodes.map((node) => node.address)).toEqual([
      { host: 'h1', port: 5432 },
      { host: '::1', port: 5433 },
    ]);
  });

  it('reads the database a string names', () => {
    expect(databaseOf('postgres://a@h1:5432,h2:5432/my%20db?x=1')).toBe('my db');
    expect(databaseOf('postgres://a@h1:5432')).toBe(null);
    expect(() => databaseOf('mysql://x')).toThrow(/database url/);
  });
});
