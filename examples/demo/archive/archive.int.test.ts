import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArchiveProcess } from './process';
import { MAX_BODY_BYTES } from './server';

// The archive as its own process over real HTTP: the contract an external step relies on.
describe('the archive service over HTTP', () => {
  let archive: Awaited<ReturnType<typeof ArchiveProcess.start>>;
  beforeAll(async () => {
    archive = await ArchiveProcess.start();
  });
  afterAll(() => archive.process.stop());

  const writer = () => ({ authorization: `Bearer ${archive.token}` });
  const put = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${archive.url}${path}`, { method: 'PUT', headers: { 'content-type': 'application/json', ...writer(), ...headers }, body });

  it('listens on loopback, answers 200 then 409 with the highest epoch, and lists what it keeps', async () => {
    expect(archive.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const key = encodeURIComponent('job@2026-11-30T16:00:00Z');
    expect((await put(`/v1/leases/job/objects/${key}`, '{"total":3}', { 'leaseboard-epoch': '7', 'idempotency-key': 'x' })).status).toBe(200);
    const stale = await put(`/v1/leases/job/objects/${key}`, '{"total":1}', { 'leaseboard-epoch': '6' });
    expect(stale.status).toBe(409);
    expect(await stale.json()).toMatchObject({ error: { code: 'stale_epoch' }, highestEpoch: 7 });
    expect(await (await fetch(`${archive.url}/v1/leases/job/objects/${key}`)).json()).toMatchObject({
      key: 'job@2026-11-30T16:00:00Z',
      epoch: 7,
      body: { total: 3 },
    });
    expect(await (await fetch(`${archive.url}/v1/leases/job/objects`)).json()).toMatchObject({ highestEpoch: 7, objects: [{ epoch: 7 }] });
    expect(await (await fetch(`${archive.url}/v1/stats`)).json()).toEqual({ accepted: 1, rejected: 1, replays: 0 });
    await archive.process.waitFor((line) => line.event === 'rejected' && line.epoch === 6 && line.highestEpoch === 7);
  });

  it('refuses bad input with 4xx and { error: { code, message } }, storing nothing', async () => {
    const cases: [Promise<Response>, number, string][] = [
      [put('/v1/leases/job/objects/k', '{}'), 400, 'bad_epoch'],
      [put('/v1/leases/job/objects/k', '{}', { 'leaseboard-epoch': '-1' }), 400, 'bad_epoch'],
      [put('/v1/leases/Bad%20Lease/objects/k', '{}', { 'leaseboard-epoch': '1' }), 400, 'bad_lease'],
      [put('/v1/leases/job/objects/k', 'not json', { 'leaseboard-epoch': '9' }), 400, 'invalid_body'],
      [put('/v1/leases/job/objects/k', JSON.stringify('x'.repeat(MAX_BODY_BYTES)), { 'leaseboard-epoch': '9' }), 413, 'too_large'],
      [fetch(`${archive.url}/v1/nothing`), 404, 'not_found'],
      [fetch(`${archive.url}/v1/leases/job/objects/k`, { method: 'DELETE' }), 405, 'method_not_allowed'],
    ];
    for (const [response, status, code] of cases) {
      const answer = await response;
      expect(answer.status).toBe(status);
      expect(await answer.json()).toMatchObject({ error: { code, message: expect.any(String) } });
    }
    expect((await (await fetch(`${archive.url}/v1/leases/job/objects`)).json()).objects.map((o: { key: string }) => o.key)).not.toContain('k');
  });

  it('takes epochs only from its writers: without the token a huge epoch or an overwrite is refused (401) and changes nothing', async () => {
    const before = await (await fetch(`${archive.url}/v1/leases/guarded/objects`)).json();
    for (const authorization of [undefined, 'Bearer not-the-token', `Bearer ${archive.token}x`, archive.token]) {
      const headers = { 'content-type': 'application/json', 'leaseboard-epoch': '999999999999999', ...(authorization ? { authorization } : {}) };
      const answer = await fetch(`${archive.url}/v1/leases/guarded/objects/k`, { method: 'PUT', headers, body: '{"evil":true}' });
      expect(answer.status, String(authorization)).toBe(401);
      expect(await answer.json()).toMatchObject({ error: { code: 'unauthorized' } });
    }
    expect(await (await fetch(`${archive.url}/v1/leases/guarded/objects`)).json()).toEqual(before);
    // A real writer's next export is not blocked by anything that was tried.
    expect((await put('/v1/leases/guarded/objects/k', '{"ok":true}', { 'leaseboard-epoch': '1' })).status).toBe(200);
  });

  it('answers a path that is not valid percent-encoding with 400 and keeps serving (it used to end the process)', async () => {
    for (const path of ['/v1/leases/%E0/objects', '/v1/leases/job/objects/%ZZ', '/%C0%AF/x']) {
      const answer = await fetch(`${archive.url}${path}`);
      expect(answer.status, path).toBe(400);
      expect(await answer.json()).toMatchObject({ error: { code: 'invalid_encoding' } });
    }
    // A Host that cannot make a URL is refused too, on a raw socket.
    const port = Number(new URL(archive.url).port);
    const status = await new Promise<string>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.write('GET /healthz HTTP/1.1\r\nHost: x:99999\r\n\r\n'));
      socket.once('data', (chunk) => (resolve(chunk.toString('latin1').slice(9, 12)), socket.destroy()));
    });
    expect(status).toBe('400');
    expect(archive.process.running).toBe(true);
    expect((await fetch(`${archive.url}/healthz`)).status).toBe(200);
  });
});
