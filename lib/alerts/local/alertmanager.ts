/**
 * A real Alertmanager on loopback, with a local webhook receiver, for tests
 * and the demo: `startLocalAlertmanager()` → `{ kind: 'started', am }` or
 * `{ kind: 'missing', hint }` when the binary is not installed.
 *
 * Guarantees
 * - Listens on 127.0.0.1 on a free port, clustering off
 *   (`--cluster.listen-address=`), config and storage in a temp folder
 *   removed by `close()`. The config is lib/alerts' own
 *   (`alertmanagerConfig`, fast grouping) — the shipped routes and inhibit
 *   rule, with the receiver pointed at the local webhook.
 * - `start()` resolves once `/-/ready` answers 200; it rejects with the
 *   process's last output if it exits first or is not ready in time.
 * - `stop()` / `start()` stop and restart it on the SAME port and storage
 *   (an outage, then a recovery). `close()` stops it, closes the webhook and
 *   deletes the folder.
 * - The process stops by itself when this one goes away: it runs under a
 *   small shell that sends SIGTERM when its stdin closes (the scheduler
 *   processes do the same), in its own process group so a forced stop can
 *   kill all of it by id.
 * Non-guarantees: loopback only; not for production deployments.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../../db/free-port';
import { alertmanagerConfig } from '../alertmanager-config';
import { toYaml } from '../yaml';
import { ALERTMANAGER, findBinary, installHint } from './binaries';
import { startWebhookReceiver, type Received, type WebhookReceiver } from './webhook-receiver';

/** Alertmanager's `GET /api/v2/alerts` entry, the parts we read. */
interface AlertmanagerAlertView {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  startsAt: string;
  endsAt: string;
  generatorURL?: string;
  status: { state: 'active' | 'suppressed' | 'unprocessed'; inhibitedBy: string[]; silencedBy: string[] };
}

export interface LocalAlertmanager {
  /** Base URL, e.g. `http://127.0.0.1:PORT` (what ALERTMANAGER_URL takes). */
  readonly url: string;
  readonly webhook: WebhookReceiver;
  readonly running: boolean;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Alertmanager's own view of its alerts (resolved ones excluded). */
  alerts(): Promise<AlertmanagerAlertView[]>;
  close(): Promise<void>;
}

export type LocalAlertmanagerStart = { kind: 'started'; am: LocalAlertmanager } | { kind: 'missing'; hint: string };

export interface LocalAlertmanagerOptions {
  binary?: string;
  /** Hears each notification the webhook receiver gets. */
  onNotification?: (received: Received) => void;
  readyTimeoutMs?: number;
  stopTimeoutMs?: number;
}

/**
 * Runs "$0" "$@" and TERMs it when stdin closes; exits with its status.
 * (Background jobs of a non-interactive shell read /dev/null, so the watcher
 * reads our stdin through fd 3.)
 */
const STDIN_WATCH = 'exec 3<&0; "$0" "$@" </dev/null & pid=$!; (cat <&3 >/dev/null; kill -TERM $pid 2>/dev/null) & exec 3<&-; wait $pid';

class Local implements LocalAlertmanager {
  readonly url: string;
  private child: ChildProcess | null = null;
  private output = '';

  constructor(
    private readonly binary: string,
    private readonly port: number,
    private readonly dir: string,
    readonly webhook: WebhookReceiver,
    private readonly options: Required<Omit<LocalAlertmanagerOptions, 'binary' | 'onNotification'>>,
  ) {
    this.url = `http://127.0.0.1:${port}`;
  }

  get running(): boolean {
    return this.child !== null;
  }

  async start(): Promise<void> {
    if (this.child) return;
    const args = [
      `--config.file=${path.join(this.dir, 'alertmanager.yml')}`,
      `--storage.path=${path.join(this.dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${this.port}`,
      `--web.external-url=${this.url}`,
      '--cluster.listen-address=',
      '--log.level=warn',
    ];
    const child = spawn('/bin/sh', ['-c', STDIN_WATCH, this.binary, ...args], { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    this.child = child;
    this.output = '';
    const keep = (chunk: Buffer) => {
      this.output = `${this.output}${chunk.toString('utf8')}`.slice(-4_000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const exited = new Promise<never>((_, reject) => {
      child.once('exit', (code, signal) => {
        if (this.child === child) this.child = null;
        reject(new Error(`alertmanager exited (${signal ?? code}) before it was ready: ${this.output.trim()}`));
      });
    });
    exited.catch(() => undefined);
    try {
      await Promise.race([exited, this.waitReady()]);
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  private async waitReady(): Promise<void> {
    const deadline = performance.now() + this.options.readyTimeoutMs;
    for (;;) {
      try {
        const response = await fetch(`${this.url}/-/ready`, { signal: AbortSignal.timeout(1_000) });
        await response.arrayBuffer();
        if (response.ok) return;
      } catch {
        // not listening yet
      }
      if (!this.child) throw new Error(`alertmanager exited before it was ready: ${this.output.trim()}`);
      if (performance.now() > deadline) throw new Error(`alertmanager not ready after ${this.options.readyTimeoutMs} ms: ${this.output.trim()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    const exited = new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('exit', () => resolve());
    });
    child.stdin?.end(); // the shell TERMs Alertmanager
    const timer = setTimeout(() => {
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, 'SIGKILL'); // its own process group: the shell, Alertmanager, the watcher
        } catch {
          // already gone
        }
      }
    }, this.options.stopTimeoutMs);
    await exited;
    clearTimeout(timer);
    if (this.child === child) this.child = null;
  }

  async alerts(): Promise<AlertmanagerAlertView[]> {
    const response = await fetch(`${this.url}/api/v2/alerts?active=true&silenced=true&inhibited=true`, { signal: AbortSignal.timeout(5_000) });
    if (!response.ok) throw new Error(`alertmanager: GET /api/v2/alerts answered ${response.status}`);
    return (await response.json()) as AlertmanagerAlertView[];
  }

  async close(): Promise<void> {
    await this.stop();
    await this.webhook.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export async function startLocalAlertmanager(options: LocalAlertmanagerOptions = {}): Promise<LocalAlertmanagerStart> {
  const binary = options.binary ?? findBinary(ALERTMANAGER);
  if (binary === null) return { kind: 'missing', hint: `Alertmanager not found: ${installHint(ALERTMANAGER)}` };
  const webhook = await startWebhookReceiver({ onReceived: options.onNotification });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'leaseboard-alertmanager-'));
  const config = alertmanagerConfig({ webhookUrl: webhook.url('/alerts'), watchdogUrl: webhook.url('/watchdog'), fast: true });
  writeFileSync(path.join(dir, 'alertmanager.yml'), toYaml(config, 'local Alertmanager for Leaseboard tests and demo'));
  const am = new Local(binary, await freePort(), dir, webhook, {
    readyTimeoutMs: options.readyTimeoutMs ?? 30_000,
    stopTimeoutMs: options.stopTimeoutMs ?? 10_000,
  });
  try {
    await am.start();
  } catch (error) {
    await am.close();
    throw error;
  }
  return { kind: 'started', am };
}
