/**
 * A demo process's state in words ("running · progress frozen"): shown on its
 * card (components/demo) and recorded as the from → to of every fault drill's
 * audit row (lib/demo/fault-audit.ts), so both say the same. Pure.
 */
import type { DemoProcess } from '../api/types';

export function describeDemoProcess(process: DemoProcess): string {
  const midWrite = process.pausingMidWrite ? (process.state === 'paused' ? 'paused mid-write' : 'pause mid-write armed (next write)') : null;
  const flags = [process.state, process.frozen ? 'progress frozen' : null, process.droppingReports ? 'dropping reports' : null, midWrite];
  return flags.filter(Boolean).join(' · ');
}
