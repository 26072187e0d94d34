/**
 * Where an embedded cluster's credentials may live: only in folders and files
 * this process's user owns and nobody else may write.
 *
 * Run as root, the embedded PostgreSQL runs as the `postgres` user, which
 * cannot reach a checkout under /root; its data then lives in the system
 * temporary directory. A predictable folder name there let any local user
 * prepare the folder (and a `credentials.json` in it) before the first start.
 *
 * Guarantees
 * - The fallback folder is made by `mkdtemp` (a fresh, unpredictable name,
 *   created atomically by this process) and found again through a note kept
 *   in the requested directory, never by its name alone.
 * - A noted folder, or a credentials file, that is not ours, is a symbolic
 *   link, or is writable by group or others is refused with
 *   `PrivateDirError` naming the path — never used, never repaired.
 * - A noted folder that no longer exists (a temp directory cleaned at boot)
 *   is replaced by a new one: its data was gone anyway.
 */
import type { Stats } from 'node:fs';
import { chmod, lstat, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export class PrivateDirError extends Error {
  constructor(
    readonly where: string,
    problem: string,
  ) {
    super(`embedded database: refusing ${where}: ${problem}`);
    this.name = 'PrivateDirError';
  }
}

const NOTE = 'fallback-data-dir';
const PREFIX = 'leaseboard-';

type Entry = Pick<Stats, 'uid' | 'mode' | 'isDirectory' | 'isFile' | 'isSymbolicLink'>;

/** Why `entry` (from lstat) may not be trusted by user `uid`, or null. Pure. */
export function privateEntryProblem(entry: Entry, uid: number, kind: 'directory' | 'file'): string | null {
  if (entry.isSymbolicLink()) return 'it is a symbolic link';
  if (kind === 'directory' ? !entry.isDirectory() : !entry.isFile()) return `it is not a ${kind}`;
  if (entry.uid !== uid) return `it belongs to uid ${entry.uid}, not to this user (${uid})`;
  if ((entry.mode & 0o022) !== 0) return `others may write it (mode ${(entry.mode & 0o777).toString(8)})`;
  return null;
}

const currentUid = () => process.getuid?.() ?? 0;

async function checked(where: string, kind: 'directory' | 'file'): Promise<void> {
  const problem = privateEntryProblem(await lstat(where), currentUid(), kind);
  if (problem !== null) throw new PrivateDirError(where, problem);
}

/** Reads a file only if it is ours and nobody else may write it. */
export async function readPrivateFile(file: string): Promise<string> {
  await checked(file, 'file');
  return readFile(file, 'utf8');
}

const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * The private folder under the system temp directory standing in for `dir`:
 * the one noted in `dir` (checked), else a new one made by mkdtemp (mode 0755
 * so the `postgres` user can traverse it; the cluster's own folder inside is
 * its, mode 0700).
 */
export async function fallbackDataRoot(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const note = path.join(dir, NOTE);
  let noted: string | null = null;
  try {
    noted = (await readPrivateFile(note)).trim();
  } catch (error) {
    if (!missing(error)) throw error;
  }
  if (noted !== null) {
    if (path.dirname(noted) !== os.tmpdir() || !path.basename(noted).startsWith(PREFIX)) {
      throw new PrivateDirError(note, `it names ${JSON.stringify(noted)}, not a ${PREFIX}* folder of ${os.tmpdir()}`);
    }
    try {
      await checked(noted, 'directory');
      return noted;
    } catch (error) {
      if (!missing(error)) throw error;
    }
  }
  const made = await mkdtemp(path.join(os.tmpdir(), PREFIX));
  await chmod(made, 0o755);
  await writeFile(note, `${made}\n`, { mode: 0o600 });
  return made;
}
