// The embedded cluster's fallback folder (used when run as root and the postgres user cannot reach the
// checkout): made by mkdtemp, found again through a note, refused when it is not private. Real files.
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fallbackDataRoot, privateEntryProblem, PrivateDirError, readPrivateFile } from './private-dir';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const scratch = (prefix: string) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
};
const uid = process.getuid!();

describe('what counts as private', () => {
  const entry = (over: Partial<{ uid: number; mode: number; dir: boolean; link: boolean }> = {}) => ({
    uid: over.uid ?? uid,
    mode: over.mode ?? 0o40755,
    isDirectory: () => over.dir ?? true,
    isFile: () => !(over.dir ?? true),
    isSymbolicLink: () => over.link ?? false,
  });
  it.each([
    ['ours, 0755', entry(), null],
    ['a symbolic link', entry({ link: true }), /symbolic link/],
    ['a file where a folder is expected', entry({ dir: false }), /not a directory/],
    ["another user's", entry({ uid: uid + 1 }), /belongs to uid/],
    ['group-writable', entry({ mode: 0o40775 }), /others may write it \(mode 775\)/],
    ['world-writable', entry({ mode: 0o40777 }), /others may write it/],
  ])('a folder that is %s', (_what, given, expected) => {
    expect(privateEntryProblem(given, uid, 'directory')).toEqual(expected === null ? null : expect.stringMatching(expected));
  });
});

describe('the fallback data folder', () => {
  it('is a fresh mkdtemp folder, not the predictable name a local user could prepare, and the same one the next time', async () => {
    const checkout = path.join(scratch('leaseboard-checkout-'), '.data');
    // What the old code would have trusted: a folder named after the checkout, with someone's credentials in it.
    const predictable = path.join(os.tmpdir(), `leaseboard-${createHash('sha256').update(checkout).digest('hex').slice(0, 12)}`);
    mkdirSync(predictable, { recursive: true, mode: 0o777 });
    made.push(predictable);
    writeFileSync(path.join(predictable, 'credentials.json'), JSON.stringify({ user: 'leaseboard', password: 'known' }));

    const root = await fallbackDataRoot(checkout);
    made.push(root);
    expect(root).not.toBe(predictable);
    expect(path.dirname(root)).toBe(os.tmpdir());
    expect(path.basename(root)).toMatch(/^leaseboard-/);
    expect(statSync(root).uid).toBe(uid);
    expect(statSync(root).mode & 0o777).toBe(0o755);
    expect(await fallbackDataRoot(checkout)).toBe(root);
  });

  it('refuses a noted folder others may write, a noted symbolic link, and a note naming a folder elsewhere', async () => {
    const checkout = scratch('leaseboard-checkout-');
    const root = await fallbackDataRoot(checkout);
    made.push(root);
    chmodSync(root, 0o777);
    await expect(fallbackDataRoot(checkout)).rejects.toThrow(PrivateDirError);
    await expect(fallbackDataRoot(checkout)).rejects.toThrow(/others may write it/);

    const elsewhere = scratch('leaseboard-target-');
    rmSync(root, { recursive: true });
    symlinkSync(elsewhere, root);
    await expect(fallbackDataRoot(checkout)).rejects.toThrow(/symbolic link/);
    rmSync(root);

    writeFileSync(path.join(checkout, 'fallback-data-dir'), '/var/lib/somewhere\n', { mode: 0o600 });
    await expect(fallbackDataRoot(checkout)).rejects.toThrow(/not a leaseboard-\* folder/);
  });

  it('replaces a noted folder that is gone (a temp directory cleaned at boot) with a new one', async () => {
    const checkout = scratch('leaseboard-checkout-');
    const first = await fallbackDataRoot(checkout);
    rmSync(first, { recursive: true });
    const second = await fallbackDataRoot(checkout);
    made.push(second);
    expect(second).not.toBe(first);
    expect(existsSync(second)).toBe(true);
  });

  it('reads a credentials file only when it is ours and nobody else may write it', async () => {
    const dir = scratch('leaseboard-credentials-');
    const file = path.join(dir, 'credentials.json');
    writeFileSync(file, '{}', { mode: 0o600 });
    expect(await readPrivateFile(file)).toBe('{}');
    chmodSync(file, 0o666);
    await expect(readPrivateFile(file)).rejects.toThrow(/others may write it \(mode 666\)/);
  });
});
