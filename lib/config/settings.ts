/**
 * THE configuration schema: every setting Leaseboard reads, in one table —
 * name, type, unit, default, range, one-line description, secret or not.
 * docs/configuration.md is generated from it (`npm run docs:config`), and the
 * loader (./load.ts) refuses any `LEASEBOARD_*` variable or file key that is
 * not here.
 *
 * Relations between settings (resend ≥ evaluate, lease events kept at least
 * as long as the history they explain, …) are checked where the settings are
 * used together (lib/alerts/config.ts, lib/retention/policy.ts,
 * lib/server/env.ts), naming the setting. Switches that exist only for test
 * harnesses and the demo are not settings: see ./reserved.ts.
 */
import { READER_ROLE } from '../../db/reader-role';
import { choice, duration, integer, onOff, type Setting, text } from './setting';

const ROLE_NAME = { regex: /^([a-z_][a-z0-9_]{0,62})?$/, hint: 'a plain lower-case role name, or empty for none' };

/** A rule's `for` and `keep firing for` (0–1h each). */
const ruleTiming = (rule: string, name: string, forDefault: string, keepDefault: string) => ({
  for: duration({
    env: `LEASEBOARD_ALERT_${rule}_FOR`,
    group: 'alerts',
    default: forDefault,
    min: '0s',
    max: '1h',
    description: `${name} fires once its condition has held this long (0s: at once).`,
  }),
  keep: duration({
    env: `LEASEBOARD_ALERT_${rule}_KEEP_FIRING_FOR`,
    group: 'alerts',
    default: keepDefault,
    min: '0s',
    max: '1h',
    description: `A firing ${name} stays firing until its condition has been false this long.`,
  }),
});

const stalled = ruleTiming('SCHEDULER_STALLED', 'SchedulerStalled', '2m', '5m');
const noLeader = ruleTiming('SCHEDULER_NO_LEADER', 'SchedulerNoLeader', '2m', '1m');
const unknown = ruleTiming('SCHEDULER_UNKNOWN', 'SchedulerUnknown', '5m', '2m');
const atRisk = ruleTiming('LEASE_RENEWAL_AT_RISK', 'LeaseRenewalAtRisk', '1m', '0s');
const staleWrites = ruleTiming('STALE_WRITES_REJECTED', 'StaleWritesRejected', '0s', '0s');
const storeUnreadable = ruleTiming('STATUS_STORE_UNREADABLE', 'StatusStoreUnreadable', '1m', '0s');

const keep = (env: string, what: string, fallback: string, max: string) =>
  duration({ env, group: 'retention', default: fallback, min: '10s', max, description: `How long ${what} are kept before the pruner deletes them.` });

export const SETTINGS = {
  // ── database ──
  databaseUrl: text({
    env: 'DATABASE_URL',
    group: 'database',
    secret: true,
    description: "PostgreSQL connection string (the owner's login); required by the server and the runners.",
  }),
  readerDatabaseUrl: text({
    env: 'LEASEBOARD_READER_DATABASE_URL',
    group: 'database',
    secret: true,
    description: "The status reads' own login (least privilege); unset: DATABASE_URL acting as the reader role.",
  }),
  actionsDatabaseUrl: text({
    env: 'LEASEBOARD_ACTIONS_DATABASE_URL',
    group: 'database',
    secret: true,
    description: "The operator actions' own login; unset: DATABASE_URL.",
  }),
  schedulerDatabaseUrl: text({
    env: 'LEASEBOARD_SCHEDULER_DATABASE_URL',
    group: 'database',
    secret: true,
    description: "The hosted jobs' and report ingest's own login; unset: DATABASE_URL.",
  }),
  readerRole: text({
    env: 'LEASEBOARD_READER_ROLE',
    group: 'database',
    default: READER_ROLE,
    pattern: ROLE_NAME,
    keepsEmpty: true,
    description: 'Role the status reads act as; empty: none (read-only transactions only).',
  }),
  dataDir: text({
    env: 'LEASEBOARD_DATA_DIR',
    group: 'database',
    default: '.data',
    description: 'Folder of the embedded database and the running demo’s address (relative to the working directory).',
  }),

  // ── server ──
  port: integer({
    env: 'PORT',
    flag: '--port',
    group: 'server',
    default: 3000,
    min: 0,
    max: 65_535,
    unit: 'port',
    description: 'TCP port the dashboard listens on (0: any free port).',
  }),
  host: text({
    env: 'HOST',
    flag: '--hostname',
    group: 'server',
    default: '127.0.0.1',
    description: 'Address the dashboard listens on; 0.0.0.0 listens everywhere (set it deliberately).',
  }),
  basePath: text({
    env: 'LEASEBOARD_BASE_PATH',
    group: 'server',
    default: '',
    description: 'Path prefix the dashboard is served under, e.g. /ops/leaseboard (needs the same value at build time).',
  }),
  publicUrl: text({
    env: 'LEASEBOARD_PUBLIC_URL',
    group: 'server',
    description: 'Absolute URL people open (with the base path): links in alerts, the origin writes must come from, Secure cookies.',
  }),
  allowedHosts: text({
    env: 'LEASEBOARD_ALLOWED_HOSTS',
    group: 'server',
    description:
      'More host names the dashboard answers (comma-separated), besides the public URL’s, loopback and the listening address; any other Host gets 421 (DNS rebinding).',
  }),
  externalUrl: text({ env: 'LEASEBOARD_EXTERNAL_URL', group: 'server', description: 'Deprecated alias of LEASEBOARD_PUBLIC_URL.' }),
  publicOrigin: text({
    env: 'LEASEBOARD_PUBLIC_ORIGIN',
    group: 'server',
    description: 'Deprecated: an origin, the base path added; use LEASEBOARD_PUBLIC_URL.',
  }),
  readTimeout: duration({
    env: 'LEASEBOARD_READ_TIMEOUT',
    group: 'server',
    default: '2s',
    min: '100ms',
    max: '30s',
    description: 'Deadline of one store read (statement timeout and client-side race).',
  }),
  pollInterval: duration({
    env: 'LEASEBOARD_POLL_INTERVAL',
    group: 'server',
    default: '2s',
    min: '500ms',
    max: '1m',
    description: 'Poll interval the server tells dashboards to use.',
  }),
  listMaxAge: duration({
    env: 'LEASEBOARD_LIST_MAX_AGE',
    group: 'server',
    default: '1s',
    min: '0s',
    max: '10s',
    description:
      'How long one list read is shared by all list and metrics requests (0s: off); at most half the poll interval, which also shortens the default.',
  }),
  maxStandbyLag: duration({
    env: 'LEASEBOARD_MAX_STANDBY_LAG',
    group: 'server',
    default: '10s',
    min: '100ms',
    max: '10m',
    description: 'A standby further behind reads `behind`, and a read it answers is not used (all unknown).',
  }),
  statusPoolMax: integer({
    env: 'LEASEBOARD_STATUS_POOL_MAX',
    group: 'server',
    default: 4,
    min: 1,
    max: 20,
    unit: 'connections',
    description: 'Connections for the list, metrics and healthz.',
  }),
  heavyPoolMax: integer({
    env: 'LEASEBOARD_HEAVY_POOL_MAX',
    group: 'server',
    default: 4,
    min: 1,
    max: 20,
    unit: 'connections',
    description: 'Connections (and concurrent reads) for detail, history and audit; never shared with the list.',
  }),
  heavyQueueMax: integer({
    env: 'LEASEBOARD_HEAVY_QUEUE_MAX',
    group: 'server',
    default: 32,
    min: 0,
    max: 1_000,
    unit: 'reads',
    description: 'Heavy reads allowed to wait for a connection; more are refused (503 busy).',
  }),
  heavyReadsPer10s: integer({
    env: 'LEASEBOARD_HEAVY_READS_PER_10S',
    group: 'server',
    // One open scheduler page polls about ten in 10 s at the default poll (detail, history, runs, audit, the alert
    // badge), and a person clicking through pages spends three a page: 40 refused a quick look round the dashboard.
    default: 120,
    min: 1,
    max: 10_000,
    unit: 'reads',
    description: 'Heavy reads per client per 10 s (about a dozen open scheduler pages at the default poll); more get 429 with Retry-After.',
  }),
  reportsPerTokenPer10s: integer({
    env: 'LEASEBOARD_REPORTS_PER_TOKEN_PER_10S',
    group: 'server',
    default: 100,
    min: 1,
    max: 100_000,
    unit: 'reports',
    description: 'HTTP progress reports allowed per report token per 10 s; more get 429.',
  }),
  hostJobs: choice({
    env: 'LEASEBOARD_HOST_JOBS',
    group: 'server',
    default: 'on',
    choices: ['on', 'off'],
    description: 'Whether the dashboard hosts the alert evaluator and the retention pruner.',
  }),

  // ── identity ──
  authHeader: text({
    env: 'LEASEBOARD_AUTH_HEADER',
    group: 'identity',
    description: "Header carrying the user's email from the SSO proxy (accepted only from LEASEBOARD_TRUSTED_PROXIES).",
  }),
  authGroupsHeader: text({ env: 'LEASEBOARD_AUTH_GROUPS_HEADER', group: 'identity', description: "Header carrying the user's groups from the SSO proxy." }),
  trustedProxies: text({
    env: 'LEASEBOARD_TRUSTED_PROXIES',
    group: 'identity',
    description: 'Addresses (IPs or CIDRs, comma-separated) of the SSO proxy; required with LEASEBOARD_AUTH_HEADER.',
  }),
  forwardedForProxies: text({
    env: 'LEASEBOARD_FORWARDED_FOR_PROXIES',
    group: 'identity',
    description: 'Proxies whose X-Forwarded-For names the client, for per-client limits (never identity).',
  }),
  allowBroadTrustedProxies: onOff({
    env: 'LEASEBOARD_ALLOW_BROAD_TRUSTED_PROXIES',
    group: 'identity',
    default: false,
    description: 'Accept a loopback entry, or one covering more than 256 addresses, in LEASEBOARD_TRUSTED_PROXIES (announced at start).',
  }),
  operators: text({ env: 'LEASEBOARD_OPERATORS', group: 'identity', description: 'Emails (comma-separated) with the operator role.' }),
  operatorGroups: text({ env: 'LEASEBOARD_OPERATOR_GROUPS', group: 'identity', description: 'Groups (comma-separated) with the operator role.' }),
  operatorToken: text({
    env: 'LEASEBOARD_OPERATOR_TOKEN',
    group: 'identity',
    secret: true,
    minLength: 24,
    description: 'Local sign-in: a token exchanged once for a session cookie; unset: local sign-in is off.',
  }),
  sessionSecret: text({
    env: 'LEASEBOARD_SESSION_SECRET',
    group: 'identity',
    secret: true,
    minLength: 32,
    description: 'Signs session cookies; unset: a random secret per process (sessions end with it).',
  }),
  sessionTtl: duration({ env: 'LEASEBOARD_SESSION_TTL', group: 'identity', default: '12h', min: '1m', max: '7d', description: 'How long a session lasts.' }),

  anonymous: choice({
    env: 'LEASEBOARD_ANONYMOUS',
    group: 'identity',
    default: 'viewer',
    choices: ['viewer', 'none'],
    description: 'What a visitor who has not signed in may do: viewer reads everything; none only health checks and metrics (production: none).',
  }),
  oidcIssuer: text({
    env: 'LEASEBOARD_OIDC_ISSUER',
    group: 'identity',
    description: "OpenID Connect sign-in: the provider's issuer URL (https; http only on loopback); unset: OIDC sign-in is off.",
  }),
  oidcClientId: text({
    env: 'LEASEBOARD_OIDC_CLIENT_ID',
    group: 'identity',
    description: 'OIDC client id registered at the provider; required with the issuer.',
  }),
  oidcClientSecret: text({
    env: 'LEASEBOARD_OIDC_CLIENT_SECRET',
    group: 'identity',
    secret: true,
    description: 'OIDC client secret (environment only; or LEASEBOARD_OIDC_CLIENT_SECRET_FILE); unset with the issuer set: a public client (PKCE only).',
  }),
  oidcClientSecretFile: text({
    env: 'LEASEBOARD_OIDC_CLIENT_SECRET_FILE',
    group: 'identity',
    description: 'File holding the OIDC client secret (a mounted secret); not with LEASEBOARD_OIDC_CLIENT_SECRET.',
  }),
  oidcScopes: text({
    env: 'LEASEBOARD_OIDC_SCOPES',
    group: 'identity',
    default: 'openid profile offline_access',
    pattern: { regex: /^[\x21\x23-\x5b\x5d-\x7e]+( [\x21\x23-\x5b\x5d-\x7e]+)*$/, hint: 'scopes separated by single spaces' },
    description: 'Scopes asked for at sign-in (openid is added when missing; offline_access asks for the refresh token).',
  }),
  oidcGroupsClaim: text({
    env: 'LEASEBOARD_OIDC_GROUPS_CLAIM',
    group: 'identity',
    default: 'groups',
    pattern: { regex: /^[A-Za-z0-9_:./-]{1,100}$/, hint: 'a claim name such as groups or roles' },
    description: 'Claim (ID token, else userinfo) listing the user’s groups.',
  }),
  oidcRoles: text({
    env: 'LEASEBOARD_OIDC_ROLES',
    group: 'identity',
    description:
      'Groups to roles, comma-separated group=role (viewer, operator, admin); an operator role may be limited to a label selector in brackets, e.g. sre-admins=admin,payments=operator[team=payments].',
  }),
  oidcRefreshEvery: duration({
    env: 'LEASEBOARD_OIDC_REFRESH_EVERY',
    group: 'identity',
    default: '15m',
    min: '30s',
    max: '1h',
    description: 'How often a signed-in session re-reads its groups from the provider (refresh token); a removed group loses its role then.',
  }),

  // ── alerts ──
  alertmanagerUrl: text({
    env: 'ALERTMANAGER_URL',
    group: 'alerts',
    description: 'Alertmanager base URLs (comma-separated, at most 10); unset: nothing is delivered.',
  }),
  alertEvaluateEvery: duration({
    env: 'LEASEBOARD_ALERT_EVALUATE_EVERY',
    group: 'alerts',
    default: '5s',
    min: '1s',
    max: '1m',
    description: "The alert evaluator's cadence.",
  }),
  alertResendEvery: duration({
    env: 'LEASEBOARD_ALERT_RESEND_EVERY',
    group: 'alerts',
    default: '1m',
    min: '5s',
    max: '15m',
    description: 'A firing (or recently resolved) alert is re-sent this often; at least the evaluation cadence.',
  }),
  alertResolvedRetention: duration({
    env: 'LEASEBOARD_ALERT_RESOLVED_RETENTION',
    group: 'alerts',
    default: '15m',
    min: '0s',
    max: '1h',
    description: 'A resolved alert is kept, and re-sent with its end, this long.',
  }),
  alertStaleWritesRejectedWindow: duration({
    env: 'LEASEBOARD_ALERT_STALE_WRITES_REJECTED_WINDOW',
    group: 'alerts',
    default: '15m',
    min: '1m',
    max: '24h',
    description: 'StaleWritesRejected counts rejections this recent.',
  }),
  alertSchedulerStalledFor: stalled.for,
  alertSchedulerStalledKeepFiringFor: stalled.keep,
  alertSchedulerNoLeaderFor: noLeader.for,
  alertSchedulerNoLeaderKeepFiringFor: noLeader.keep,
  alertSchedulerUnknownFor: unknown.for,
  alertSchedulerUnknownKeepFiringFor: unknown.keep,
  alertLeaseRenewalAtRiskFor: atRisk.for,
  alertLeaseRenewalAtRiskKeepFiringFor: atRisk.keep,
  alertStaleWritesRejectedFor: staleWrites.for,
  alertStaleWritesRejectedKeepFiringFor: staleWrites.keep,
  alertStatusStoreUnreadableFor: storeUnreadable.for,
  alertStatusStoreUnreadableKeepFiringFor: storeUnreadable.keep,

  // ── retention ──
  retainReports: keep('LEASEBOARD_RETAIN_REPORTS', 'progress reports', '7d', '90d'),
  retainRenewals: keep('LEASEBOARD_RETAIN_RENEWALS', 'renewal history rows', '7d', '90d'),
  retainRejections: keep('LEASEBOARD_RETAIN_REJECTIONS', 'stale-write rejections', '7d', '90d'),
  retainLeaseEvents: keep('LEASEBOARD_RETAIN_LEASE_EVENTS', 'lease events', '30d', '365d'),
  retainAlertEvents: keep('LEASEBOARD_RETAIN_ALERT_EVENTS', 'alert transitions', '30d', '365d'),
  retainOccurrences: keep('LEASEBOARD_RETAIN_OCCURRENCES', 'occurrences', '7d', '90d'),
  partitionWidth: duration({
    env: 'LEASEBOARD_PARTITION_WIDTH',
    group: 'retention',
    default: '1d',
    min: '10s',
    max: '1d',
    description: 'Width of one progress_reports partition; must divide a day.',
  }),
  retentionEvery: duration({
    env: 'LEASEBOARD_RETENTION_EVERY',
    group: 'retention',
    default: '1m',
    min: '5s',
    max: '1h',
    description: "The retention pruner's cadence.",
  }),
  retentionBatch: integer({
    env: 'LEASEBOARD_RETENTION_BATCH',
    group: 'retention',
    default: 5_000,
    min: 100,
    max: 50_000,
    unit: 'rows',
    description: 'Rows one pruning statement deletes at most.',
  }),

  // ── tools ──
  pgBin: text({
    env: 'LEASEBOARD_PG_BIN',
    group: 'tools',
    default: '/usr/lib/postgresql/15/bin',
    description: 'PostgreSQL server binaries the failover drill builds its primary and standby from.',
  }),
} as const satisfies Record<string, Setting<unknown>>;

export type SettingKey = keyof typeof SETTINGS;

/** Every setting's typed value. */
export type Settings = { readonly [K in SettingKey]: (typeof SETTINGS)[K] extends Setting<infer T> ? T : never };

/** Variable name → setting key. */
export const BY_ENV: ReadonlyMap<string, SettingKey> = new Map(Object.entries(SETTINGS).map(([key, s]) => [s.env, key as SettingKey]));
/** File key → setting key. */
export const BY_FILE_KEY: ReadonlyMap<string, SettingKey> = new Map(Object.entries(SETTINGS).map(([key, s]) => [s.key, key as SettingKey]));

/** A value as the docs and `leaseboard config` write it. */
export function showValue(key: SettingKey, value: unknown): string {
  return (SETTINGS[key] as Setting<unknown>).show(value);
}
