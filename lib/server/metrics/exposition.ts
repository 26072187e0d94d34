/**
 * Prometheus text exposition (format 0.0.4) for the per-scheduler gauge
 * families, written directly: at 10,000 schedulers prom-client's per-series
 * label hashing and formatting cost ~0.6 s of event-loop time per scrape
 * (measured), this ~20× less. prom-client still renders the service's own
 * gauges (./metrics.ts); `promtool check metrics` checks the whole output.
 *
 * Guarantees: label values escaped per the format (\\, ", newline); HELP
 * escaped (\\, newline); values written as Go-compatible floats (NaN, ±Inf).
 */

export function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function escapeHelp(help: string): string {
  return help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}

/** One gauge (or counter) family; `labels` is the pre-rendered inside of `{…}` (e.g. `scheduler="a"`). */
export class GaugeFamily {
  private readonly lines: string[] = [];

  constructor(
    readonly name: string,
    private readonly help: string,
    private readonly type: 'gauge' | 'counter' = 'gauge',
  ) {
    if (!/^[a-zA-Z_:][a-zA-Z0-9_:]*$/.test(name)) throw new Error(`metrics: invalid metric name ${name}`);
  }

  add(labels: string, value: number): void {
    this.lines.push(`${this.name}{${labels}} ${formatValue(value)}`);
  }

  render(): string {
    if (this.lines.length === 0) return '';
    return `# HELP ${this.name} ${escapeHelp(this.help)}\n# TYPE ${this.name} ${this.type}\n${this.lines.join('\n')}\n`;
  }
}
