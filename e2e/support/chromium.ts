/**
 * The browser this project tests with: Debian's Chromium when installed
 * (Playwright cannot download browsers here), else Playwright's own. The flags
 * keep it off the network (this machine's closed network refuses Chromium's
 * background connections) and runnable as root.
 */
import { existsSync } from 'node:fs';

const SYSTEM_CHROMIUM = '/usr/bin/chromium';

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
