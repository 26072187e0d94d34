import { describe, expect, it } from 'vitest';
import { redactAttributes } from './redact';

describe('redactAttributes: only what the privacy rules allow leaves a process', () => {
  it('drops what instrumentation-pg and the HTTP layer would add about hosts, users, URLs and values', () => {
    const kept = redactAttributes({
      'db.system.name': 'postgresql',
      'db.query.text': 'SELECT 1 WHERE x = $1',
      'server.address': 'db-7.internal.example',
      'server.port': 5432,
      'net.peer.name': 'db-7.internal.example',
      'db.user': 'leaseboard_scheduler',
      'db.connection_string': 'postgresql://db-7.internal.example:5432/prod',
      'db.postgresql.values': ['secret'],
      'url.full': 'http://dash.example/login?next=/x',
      'http.target': '/api/v1/schedulers?q=abc',
      'exception.message': 'duplicate key (name)=(customer-42)',
      'exception.type': 'DatabaseError',
      'leaseboard.scheduler': 'retention-planner',
      'leaseboard.holder': 'host-a:4242',
    });
    expect(kept).toEqual({
      'db.system.name': 'postgresql',
      'db.query.text': 'SELECT 1 WHERE x = $1',
      'exception.type': 'DatabaseError',
      'leaseboard.scheduler': 'retention-planner',
    });
  });
});
