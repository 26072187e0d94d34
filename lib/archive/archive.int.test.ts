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

  const put = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${archive.url}${path}`, { method: 'PUT', headers: { 'content-type': 'application/json', ...headers }, body });

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
      [put('/v1/leases/job/objects/k', 'not json', { 'leaseboard-epoch': '9' }), 400, 'bad_body'],
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
});
