/**
 * The archive service as a child process (./cli.ts), for the demo and tests:
 * `start()` resolves with its URL once it listens; `stop()` ends it (see
 * ../child/json-line-process.ts for the guarantees).
 */
import { JsonLineProcess } from '../child/json-line-process';

export class ArchiveProcess extends JsonLineProcess {
  private constructor(onLine?: (line: { event: string; [key: string]: unknown }) => void) {
    super({ name: 'archive', entry: 'lib/archive/cli.ts', args: [], onLine });
  }

  /** Starts one on a free loopback port; resolves once it listens. */
  static async start(onLine?: (line: { event: string; [key: string]: unknown }) => void): Promise<{ process: ArchiveProcess; url: string }> {
    const process = new ArchiveProcess(onLine);
    try {
      const listening = await process.waitFor((line) => line.event === 'listening', 30_000);
      return { process, url: String(listening.url) };
    } catch (error) {
      await process.stop();
      throw error;
    }
  }
}
