/**
 * The archive service as a child process (./cli.ts), for the demo and tests:
 * `start()` makes a fresh writers' token, and resolves with the URL and the
 * token once it listens (hand the token to the writers as
 * LEASEBOARD_ARCHIVE_TOKEN); `stop()` ends it (see
 * ../child/json-line-process.ts for the guarantees).
 */
import { randomBytes } from 'node:crypto';
import { JsonLineProcess } from '../../../lib/child/json-line-process';

export class ArchiveProcess extends JsonLineProcess {
  private constructor(token: string, onLine?: (line: { event: string; [key: string]: unknown }) => void) {
    super({ name: 'archive', entry: 'examples/demo/archive/cli.ts', args: [], env: { LEASEBOARD_ARCHIVE_TOKEN: token }, onLine });
  }

  /** Starts one on a free loopback port; resolves once it listens. */
  static async start(onLine?: (line: { event: string; [key: string]: unknown }) => void): Promise<{ process: ArchiveProcess; url: string; token: string }> {
    const token = randomBytes(24).toString('base64url');
    const process = new ArchiveProcess(token, onLine);
    try {
      const listening = await process.waitFor((line) => line.event === 'listening', 30_000);
      return { process, url: String(listening.url), token };
    } catch (error) {
      await process.stop();
      throw error;
    }
  }
}
