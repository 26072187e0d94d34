/**
 * The synthetic retention planner, one job among examples (docs/design.md "Jobs"):
 * every 5 minutes, plan which synthetic documents would expire (step `plan`, fenced), export
 * the occurrence's summary to the archive (step `export`, external) when an archive is configured,
 * then keep its own plan items bounded (step `prune`, fenced). No document is ever deleted.
 */
import { defineJob, type Job, JobDefinitionError, type Step } from '../../../lib/scheduler';
import { exportStep } from './export-step';
import { planStep } from './plan-step';
import { pruneStep } from './prune-step';

export interface RetentionPlannerOptions {
  /** Documents per batch. Default 500 (1–10,000). */
  batchSize?: number;
  /** The archive service to export each occurrence's summary to (../archive); none: no export step. */
  archiveUrl?: string | null;
  /** The archive's writers' token (LEASEBOARD_ARCHIVE_TOKEN); required with `archiveUrl`. */
  archiveToken?: string | null;
}

const RETENTION_PLANNER_EVERY_MS = 5 * 60_000;

export function retentionPlannerJob(options: RetentionPlannerOptions = {}): Job {
  const batchSize = options.batchSize ?? 500;
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10_000) throw new JobDefinitionError('retention-planner', 'batchSize must be 1–10000');
  const steps: Step[] = [planStep(batchSize)];
  if (options.archiveUrl) {
    if (!options.archiveToken)
      throw new JobDefinitionError('retention-planner', 'an archive URL needs LEASEBOARD_ARCHIVE_TOKEN, the token the archive shares with its writers');
    steps.push(exportStep({ url: options.archiveUrl, token: options.archiveToken }));
  }
  steps.push(pruneStep());
  return defineJob({ name: 'retention-planner', everyMs: RETENTION_PLANNER_EVERY_MS, steps });
}
