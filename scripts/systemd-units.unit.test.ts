/**
 * The systemd units in deploy/systemd pass `systemd-analyze verify` with nothing to say: it exits 0
 * even on an unknown key or a bad value (it only prints them), so any output at all fails here.
 *
 * verify checks that ExecStart's program exists and is executable, and loads the units a service
 * depends on by default (sysinit.target, …). It runs with `--root` on a folder made here: the
 * host's own systemd units, ours in /etc/systemd/system, and an executable stand-in at
 * /usr/local/bin/leaseboard (where `npm install -g leaseboard` links the command), so the check
 * needs neither the package installed nor systemd running as PID 1.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHUTDOWN_DEADLINE_MS } from '../lib/child/parent';
import { parseDuration } from '../lib/config';

const HERE = path.resolve(__dirname, '../deploy/systemd');
const HOST_UNITS = '/lib/systemd/system';
const UNITS = ['leaseboard.service', 'leaseboard-run@.service'];
/** What verify loads: the template through one instance of it. */
const VERIFIED = ['leaseboard.service', 'leaseboard-run@nightly-export.service'];

let root: string;

function verify(unit: string): string {
  const run = spawnSync('systemd-analyze', ['verify', '--root', root, unit], { encoding: 'utf8' });
  if (run.error) throw run.error;
  return `${run.stdout}${run.stderr}`.trim();
}

const available = spawnSync('systemd-analyze', ['--version']).status === 0 && existsSync(HOST_UNITS);
const UNAVAILABLE = 'no systemd-analyze or /lib/systemd/system on this machine (Debian: apt-get install systemd)';

describe('deploy/systemd units', () => {
  beforeAll(() => {
    if (!available) return;
    root = mkdtempSync(path.join(os.tmpdir(), 'leaseboard-units-'));
    cpSync(HOST_UNITS, path.join(root, HOST_UNITS), { recursive: true, verbatimSymlinks: true });
    mkdirSync(path.join(root, 'etc/systemd/system'), { recursive: true });
    for (const unit of UNITS) cpSync(path.join(HERE, unit), path.join(root, 'etc/systemd/system', unit));
    mkdirSync(path.join(root, 'usr/local/bin'), { recursive: true });
    writeFileSync(path.join(root, 'usr/local/bin/leaseboard'), '#!/bin/sh\n');
    chmodSync(path.join(root, 'usr/local/bin/leaseboard'), 0o755);
  });
  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it.for(VERIFIED)('%s: systemd-analyze verify prints nothing', (unit, { skip }) => {
    skip(!available, UNAVAILABLE);
    expect(verify(unit)).toBe('');
  });

  it('the check sees a mistake: an unknown key and a bad value are printed (verify still exits 0)', () => {
    const unit = path.join(root, 'etc/systemd/system/leaseboard.service');
    const good = readFileSync(unit, 'utf8');
    try {
      writeFileSync(unit, good.replace('ProtectHome=yes', 'ProtectHome=sometimes\nRestartEvery=1s'));
      const said = verify('leaseboard.service');
      expect(said).toContain("Unknown key 'RestartEvery'");
      expect(said).toMatch(/protect home value.*sometimes/i);
    } finally {
      writeFileSync(unit, good);
    }
  });

  it("the dashboard's TimeoutStopSec outlasts the server's own stop deadline", () => {
    const setting = /^TimeoutStopSec=(\S+)$/m.exec(readFileSync(path.join(HERE, 'leaseboard.service'), 'utf8'))?.[1];
    expect(setting).toBeDefined();
    expect(parseDuration(setting!)).toBeGreaterThan(SHUTDOWN_DEADLINE_MS);
  });
});
