// Linux /proc readings for tests that check what a process tree leaves behind: who descends from whom,
// and how much CPU each used (user + system, in seconds).
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcessInfo {
  pid: number;
  ppid: number;
  /** user + system CPU time so far, in seconds */
  cpuS: number;
  command: string;
}

const TICKS_PER_SECOND = 100;

export function processInfo(pid: number): ProcessInfo | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z') return null; // a zombie has ended; only its parent's wait is missing
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim().slice(0, 160);
    return { pid, ppid: Number(fields[1]), cpuS: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND, command };
  } catch {
    return null;
  }
}

function allProcesses(): ProcessInfo[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((entry) => processInfo(Number(entry)) ?? []);
}

/** `root` and every process descending from it now (by parent pid). */
export function descendants(root: number): ProcessInfo[] {
  const all = allProcesses();
  const inTree = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const process of all) {
      if (!inTree.has(process.pid) && inTree.has(process.ppid)) {
        inTree.add(process.pid);
        grew = true;
      }
    }
  }
  return all.filter((process) => inTree.has(process.pid));
}

/** Kills whatever of `pids` still runs (test cleanup: nothing a test started may outlive it). */
export function killAll(pids: Iterable<number>): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
}
