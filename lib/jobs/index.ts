/**
 * The jobs the CLI can run by name (`npm run scheduler -- --job NAME`). The
 * runtime itself imports none of them: a job is handed to it.
 */
import type { Job } from '../scheduler';
import { squaresJob } from './example-squares/job';
import { retentionPlannerJob } from './retention-planner';

/** What the CLI passes on to a job: its own options, from flags. */
export interface JobOptions {
  batchSize?: number;
  archiveUrl?: string | null;
}

export const JOBS = {
  'retention-planner': (options: JobOptions) => retentionPlannerJob(options),
  squares: () => squaresJob,
} satisfies Record<string, (options: JobOptions) => Job>;
