/**
 * The demo's scheduler process: `node --import tsx examples/demo/scheduler.ts [--job retention-planner]
 * [--archive-url URL] [--lease NAME] [--label A] [options…]`. The same process as `leaseboard scheduler`
 * (lib/cli/scheduler.ts: flags, JSON-line events, signals, the pause-mid-write drill) around the demo's
 * own job, which the product does not know: a team's own program would put its jobs into the runtime
 * the same way. The demo supervisor (./supervisor.ts) and the tests that drive the demo's job start it.
 *
 * The retention planner exports each occurrence's summary to the archive (./archive) when given
 * `--archive-url` (or LEASEBOARD_ARCHIVE_URL), with the writers' token LEASEBOARD_ARCHIVE_TOKEN.
 */
import { JobDefinitionError } from '../../lib/scheduler';
import { COMMON_OPTIONS, runScheduler } from '../../lib/cli/scheduler';
import { retentionPlannerJob } from './retention-planner';

const archiveUrlOf = (flag: string | undefined): string | null => {
  const url = flag ?? process.env.LEASEBOARD_ARCHIVE_URL ?? null;
  if (url !== null && !/^https?:\/\/[^\s]+$/.test(url)) throw new JobDefinitionError('retention-planner', '--archive-url: an http(s) URL');
  return url;
};

const HELP = `usage: node --import tsx examples/demo/scheduler.ts [--job retention-planner] [--archive-url URL] [options]

Runs the demo's retention planner (the default job) under the lease --lease (default: its name),
one JSON line per runtime event on stdout. With --archive-url (or LEASEBOARD_ARCHIVE_URL) it exports
each occurrence's summary to the archive, with the token LEASEBOARD_ARCHIVE_TOKEN.

${COMMON_OPTIONS}`;

void runScheduler(process.argv.slice(2), {
  name: 'demo scheduler',
  jobs: {
    'retention-planner': (options) =>
      retentionPlannerJob({
        batchSize: options.batchSize,
        archiveUrl: archiveUrlOf(options.flags?.['archive-url']),
        // The archive's writers' token from the environment (./archive/server.ts).
        archiveToken: process.env.LEASEBOARD_ARCHIVE_TOKEN?.trim() || null,
      }),
  },
  defaultJob: 'retention-planner',
  jobFlags: ['archive-url'],
  help: HELP,
});
