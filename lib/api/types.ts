/**
 * The v1 HTTP contract (docs/design.md "API") as types, shared by the route
 * handlers, the server-side first render and the browser. The response types
 * are inferred from the zod schemas in ./schemas.ts (which also generate the
 * OpenAPI document); importing them here is type-only, so no zod reaches the
 * browser bundle. Times are ISO-8601 UTC strings from the database clock;
 * ages and durations are integer ms.
 */

import type { z } from 'zod';
import type { DRILL_ACTIONS } from './drill-actions';
import type * as schemas from './schemas';

/** One answer's observation of the store (see ./schemas.ts for field notes). */
export type Observation = z.infer<typeof schemas.ObservationSchema>;
/** GET /api/v1/schedulers */
export type SchedulerListResponse = z.infer<typeof schemas.SchedulerListResponseSchema>;
/** One group of a list grouped by a label (`group=KEY`). */
export type GroupSummary = z.infer<typeof schemas.GroupSummarySchema>;
export type Durability = z.infer<typeof schemas.DurabilitySchema>;
/** One epoch's tenure `[from, to)`; `to` null while it lasts. */
export type Tenure = z.infer<typeof schemas.TenureSchema>;
export type StaleWriteRejection = z.infer<typeof schemas.StaleWriteRejectionSchema>;
/** GET /api/v1/schedulers/{name}[?at=ISO] */
export type SchedulerDetailResponse = z.infer<typeof schemas.SchedulerDetailResponseSchema>;
/** One axis of a detail's status as a Kubernetes-shaped condition (lib/status/conditions.ts). */
export type Condition = z.infer<typeof schemas.ConditionSchema>;
export type HealthSegment = z.infer<typeof schemas.HealthSegmentSchema>;
export type HistoryBucket = z.infer<typeof schemas.HistoryBucketSchema>;
/** GET /api/v1/strips */
export type StripsResponse = z.infer<typeof schemas.StripsResponseSchema>;
export type ReliabilityResponse = z.infer<typeof schemas.ReliabilityResponseSchema>;
export type GroupReliabilityResponse = z.infer<typeof schemas.GroupReliabilityResponseSchema>;
export type SchedulerReliability = z.infer<typeof schemas.SchedulerReliabilitySchema>;
export type StripRow = z.infer<typeof schemas.StripRowSchema>;
export type StripSegmentBody = z.infer<typeof schemas.StripSegmentSchema>;
/** GET /api/v1/schedulers/{name}/history?from=&to= */
export type SchedulerHistoryResponse = z.infer<typeof schemas.SchedulerHistoryResponseSchema>;
/** GET /api/healthz — the status service's own health (nothing about schedulers). 200 when ok, else 503. */
export type HealthzResponse = z.infer<typeof schemas.HealthzResponseSchema>;
/** Every error code an answer can carry. */
export type ErrorCode = z.infer<typeof schemas.ErrorCodeSchema>;
export type ApiError = z.infer<typeof schemas.ApiErrorSchema>;
/** With 410 `outside_retention`: the oldest instant kept and the retention. */
export type RetentionRefusal = z.infer<typeof schemas.RetentionRefusalSchema>;
/** POST /api/v1/schedulers/{name}/intent: request and answer. */
export type IntentRequest = z.infer<typeof schemas.IntentRequestSchema>;
export type IntentResponse = z.infer<typeof schemas.IntentResponseSchema>;
/** PUT /api/v1/schedulers/{name}/labels: its answer (the request is LabelsRequestSchema's). */
export type LabelsResponse = z.infer<typeof schemas.LabelsResponseSchema>;
/** Maintenance windows (GET/POST /api/v1/maintenance-windows, PUT/DELETE …/{id}), bulk intent, team owners. */
export type MaintenanceWindowRequest = z.infer<typeof schemas.MaintenanceWindowRequestSchema>;
export type MaintenanceWindowView = z.infer<typeof schemas.MaintenanceWindowSchema>;
export type MaintenanceListResponse = z.infer<typeof schemas.MaintenanceListResponseSchema>;
export type MaintenanceChangeResponse = z.infer<typeof schemas.MaintenanceChangeResponseSchema>;
export type BulkIntentResponse = z.infer<typeof schemas.BulkIntentResponseSchema>;
export type TeamOwnerView = z.infer<typeof schemas.TeamOwnerSchema>;
export type TeamOwnerResponse = z.infer<typeof schemas.TeamOwnerResponseSchema>;
/** Report tokens (POST/DELETE /api/v1/schedulers/{name}/report-tokens) and HTTP reports (POST …/reports). */
export type ReportTokenResponse = z.infer<typeof schemas.ReportTokenResponseSchema>;
export type ReportRequest = z.infer<typeof schemas.ReportRequestSchema>;
export type ReportResponse = z.infer<typeof schemas.ReportResponseSchema>;
/** GET /api/v1/audit */
export type AuditEntry = z.infer<typeof schemas.AuditEntrySchema>;
export type AuditResponse = z.infer<typeof schemas.AuditResponseSchema>;
/** GET /api/v1/alerts, and the alerts of a scheduler (detail) and its alert spans (history). */
export type AlertsResponse = z.infer<typeof schemas.AlertsResponseSchema>;
export type AlertEntry = z.infer<typeof schemas.AlertEntrySchema>;
export type SchedulerAlert = z.infer<typeof schemas.SchedulerAlertSchema>;
export type AlertSpan = z.infer<typeof schemas.AlertSpanSchema>;
export type SchedulerAlertMode = z.infer<typeof schemas.SchedulerAlertModeSchema>;
export type AlertModeName = z.infer<typeof schemas.AlertModeSchema>;
export type AlertRuleName = z.infer<typeof schemas.AlertNameSchema>;
/** PUT /api/v1/alerts/rules/{rule}/mode: request and answer. */
export type AlertModeRequest = z.infer<typeof schemas.AlertModeRequestSchema>;
export type AlertModeResponse = z.infer<typeof schemas.AlertModeResponseSchema>;
/** GET/POST/DELETE /api/v1/session */
export type SessionResponse = z.infer<typeof schemas.SessionResponseSchema>;
export type SignInRequest = z.infer<typeof schemas.SignInRequestSchema>;

/** Fault drills on a supervised process (the demo's supervisor; loopback, demo mode only). */
export type DrillAction = (typeof DRILL_ACTIONS)[number];
export type DemoActionRequest = z.infer<typeof schemas.DemoActionRequestSchema>;

export interface DemoProcess {
  /** Stable id within the demo, e.g. `nightly-export-A`. */
  id: string;
  lease: string;
  label: string;
  /** Instance token of the current incarnation (null before it printed one). */
  token: string | null;
  state: 'starting' | 'running' | 'paused' | 'exited';
  frozen: boolean;
  droppingReports: boolean;
  /** "Pause mid-write" is armed or under way: the next fenced write stops the process past its ttl, then it resumes. */
  pausingMidWrite: boolean;
}

export interface DemoProcessesResponse {
  processes: DemoProcess[];
}

/** Service tokens (GET/POST /api/v1/tokens, DELETE /api/v1/tokens/{id}). */
export type ServiceTokenInfo = z.infer<typeof schemas.ServiceTokenSchema>;
export type ServiceTokenCreated = z.infer<typeof schemas.ServiceTokenCreatedSchema>;
export type ServiceTokenList = z.infer<typeof schemas.ServiceTokenListSchema>;
export type ServiceTokenCreateRequest = z.infer<typeof schemas.ServiceTokenCreateRequestSchema>;
export type RunNowResponse = z.infer<typeof schemas.RunNowResponseSchema>;
export type RunRequestView = z.infer<typeof schemas.RunRequestSchema>;
export type SchedulerRunsResponse = z.infer<typeof schemas.SchedulerRunsResponseSchema>;
export type UpcomingResponse = z.infer<typeof schemas.UpcomingResponseSchema>;
/** GET /api/v1/schedulers/{name}/incident */
export type IncidentResponse = z.infer<typeof schemas.IncidentResponseSchema>;
export type IncidentEntry = z.infer<typeof schemas.IncidentEntrySchema>;
