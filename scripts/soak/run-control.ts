/**
 * A long run's controls, shared by the soak (scripts/soak.ts) and the fleet (scripts/fleet.ts):
 * SIGINT or SIGTERM aborts `stop` and marks the run interrupted; a failure recorded by the run
 * aborts it as well; cleanups are registered as things start and run in reverse order at the end.
 */
export class RunControl {
  readonly stop = new AbortController();
  readonly cleanups: (() => Promise<unknown>)[] = [];
  readonly failures: string[] = [];
  interrupted = false;

  constructor() {
    const onSignal = () => {
      this.interrupted = true;
      this.stop.abort();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
}
