/**
 * The report loop of one tenure: every `reportEveryMs` a report with the
 * epoch, a seq contiguous from 1 within the epoch, the occurrence in flight
 * and its cursor (all from ./tenure-state.ts) — also while the work is frozen (the cursor then stays put).
 * While reports are being dropped (fault drill) the seq still advances, so
 * the store sees the gap when they resume. A failed append is not retried:
 * it is a gap, and the seq stream shows it. Reports leave through the
 * process's batching reporter (./reporter.ts): the first at once, then on the
 * process's report rounds (./report-rounds.ts), one statement a round for
 * every lease of the process — never later than `reportEveryMs` after the
 * previous report was answered.
 */
import type { Clock } from './clock';
import type { SchedulerConfig } from './config';
import { type EventSink, safeMessage } from './events';
import type { Reporter } from './reporter';
import type { Tenure } from './tenure';
import type { TenureState } from './tenure-state';

export async function runReportLoop(
  tenure: Tenure,
  state: TenureState,
  deps: {
    reporter: Reporter;
    config: SchedulerConfig;
    clock: Clock;
    emit: EventSink;
    dropping(): boolean;
  },
): Promise<void> {
  while (!tenure.signal.aborted) {
    const seq = state.nextSeq();
    if (!deps.dropping()) {
      try {
        const { occurrence, cursor } = state.position;
        await deps.reporter.report({
          lease: deps.config.lease.name,
          epoch: tenure.epoch,
          seq,
          occurrence,
          cursor,
          reportEveryMs: deps.config.reportEveryMs,
        });
      } catch (error) {
        deps.emit({ event: 'error', where: 'report', message: safeMessage(error) });
      }
    }
    await deps.clock.sleep(deps.reporter.untilNextRound(deps.clock.now(), deps.config.reportEveryMs), tenure.signal);
  }
}
