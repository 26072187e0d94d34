/**
 * docs/configuration.md, generated from the schema (`npm run docs:config`);
 * lib/config/reference.unit.test.ts fails when the committed page is stale.
 * Guarantees: pure and deterministic (the schema's order; no dates).
 */
import { RENAMED, RESERVED_NAMES, RESERVED_PREFIXES } from './reserved';
import type { SettingGroup } from './setting';
import { type SettingKey, SETTINGS, showValue } from './settings';

const GROUPS: Readonly<Record<SettingGroup, string>> = {
  database: 'Database',
  server: 'Dashboard server',
  identity: 'Identity and sign-in',
  alerts: 'Alerts',
  retention: 'Retention',
  tools: 'Tools',
};

const cell = (text: string) => text.replace(/\|/g, '\\|');

function defaultOf(key: SettingKey): string {
  const spec = SETTINGS[key];
  if (spec.default === null) return '(unset)';
  const shown = showValue(key, spec.default);
  return shown === '' ? '(empty)' : `\`${shown}\``;
}

function typeOf(key: SettingKey): string {
  const spec = SETTINGS[key];
  return spec.unit ? `${spec.type} (${spec.unit})` : spec.type;
}

function table(group: SettingGroup): string {
  const rows = (Object.keys(SETTINGS) as SettingKey[])
    .filter((key) => SETTINGS[key].group === group)
    .map((key) => {
      const s = SETTINGS[key];
      const names = [`\`${s.env}\``, `file: \`${s.key}\``, ...(s.flag ? [`flag: \`${s.flag}\``] : [])].join('<br>');
      return `| ${names} | ${typeOf(key)}${s.secret ? ' · secret' : ''} | ${defaultOf(key)} | ${s.range ? cell(s.range) : ''} | ${cell(s.description)} |`;
    });
  return [`## ${GROUPS[group]}`, '', '| setting | type | default | range | what it does |', '|---|---|---|---|---|', ...rows].join('\n');
}

export function configurationReference(): string {
  const groups = Object.keys(GROUPS) as SettingGroup[];
  const count = Object.keys(SETTINGS).length;
  return `<!-- Generated from lib/config/settings.ts by \`npm run docs:config\`: do not edit by hand. -->

# Configuration

Every setting Leaseboard reads (${count} of them) is defined once, in
\`lib/config/settings.ts\`: its name, type, unit, default, range and what it
does. This page is generated from it.

## Where values come from

In order of precedence, each overriding the one before:

1. **defaults** (below);
2. **the configuration file**, \`--config FILE\` (YAML, or JSON for a \`.json\`
   file): what a team keeps in git. Keys are the variables' names without
   \`LEASEBOARD_\`, in lower case (\`read_timeout: 2s\`); a list may be a YAML
   list;
3. **environment variables**;
4. **flags** (\`leaseboard start --port 8080\`).

An empty value (\`LEASEBOARD_READ_TIMEOUT=\`) is the same as unset, except where
a setting says empty means something of its own.

## Checked before anything starts

\`leaseboard start\`, \`run\`, \`scheduler\`, \`migrate\` and \`config\` refuse to
start, exit code 2, naming each problem:

- a value out of its range or of the wrong form — nothing is clamped;
- a duration without a unit: durations are written with one everywhere
  (\`250ms\`, \`15s\`, \`2m\`, \`1h\`, \`7d\`), in flags, variables and the file;
- a \`LEASEBOARD_*\` variable that is not a setting (a typo), with the nearest
  real name when one is close; a file key that is not a setting, likewise.

\`leaseboard config [--config FILE] [--json]\` prints the effective value of
every setting and where it came from (default, file, environment, flag),
secrets redacted, and refuses a bad configuration the same way — run it
before a deploy.

Relations between settings are checked where they are used, naming the
setting: \`LEASEBOARD_ALERT_RESEND_EVERY\` ≥ \`LEASEBOARD_ALERT_EVALUATE_EVERY\`;
\`LEASEBOARD_ALERT_STATUS_STORE_UNREADABLE_FOR\` ≤ \`LEASEBOARD_ALERT_SCHEDULER_UNKNOWN_FOR\`;
\`LEASEBOARD_LIST_MAX_AGE\` ≤ half \`LEASEBOARD_POLL_INTERVAL\`; lease events kept at
least as long as reports, renewals and rejections; plan items no longer than
occurrences; \`LEASEBOARD_PARTITION_WIDTH\` divides a day.

${groups.map(table).join('\n\n')}

## Command options

\`leaseboard run\` and \`leaseboard scheduler\` take their lease timing as
options of the command (\`--ttl 15s\`, \`--renew-every 5s\`, \`--every 1h\`,
\`--report-every 2s\`, …), durations with a unit like everything else;
\`leaseboard run --help\` and \`leaseboard scheduler --help\` list them.

## Names that are not settings

- ${RESERVED_PREFIXES.map((prefix) => `\`${prefix}*\``).join(' and ')}: switches a test harness or the demo sets for the processes it
  starts; never an operator's setting, and ignored by the typo check.
- ${[...RESERVED_NAMES].map((name) => `\`${name}\``).join(', ')}: set by Leaseboard itself for
  processes it starts (\`leaseboard run\` gives its command the lease, epoch and occurrence), or the
  demo's archive.

## Renamed

Settings in milliseconds were renamed when durations got units; the old name is
refused with the new one:

| old | new (a duration with its unit) |
|---|---|
${[...RENAMED].map(([old, now]) => `| \`${old}\` | \`${now}\` |`).join('\n')}
`;
}
