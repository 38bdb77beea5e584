import type { AwsClients } from '@tickring/aws/clients';
import type { AlertSender, AlertStore } from '@tickring/core/alerts';
import type { AuditLog } from '@tickring/core/audit';
import type { BackfillStore } from '@tickring/core/backfills';
import type { CalendarStore } from '@tickring/core/calendars';
import type { Clock, Logger } from '@tickring/core/common';
import type { RingGauge, RingLane, RingQueue, RouteStateStore, SlowTracker } from '@tickring/core/dispatch';
import type { RegistrationRefusalStore, RegistryStore } from '@tickring/core/executors';
import type { PrincipalStore } from '@tickring/core/identity';
import type { GroupStore, JobStore } from '@tickring/core/jobs';
import type { AlarmPublisher, ReportStore, RunStore } from '@tickring/core/runs';
import type { LeaseStore } from '@tickring/core/tick';
import type { WorkflowStore } from '@tickring/core/workflows';
import type { StoreKind } from './store-config.js';

/**
 * Every storage port's adapter, for one technology: a function's composition root asks the kit
 * and never names an adapter, so the store choice (`TICKRING_STORE`) is made in this one place.
 * Each call builds a new adapter over the same tables (or the same database file).
 */
export interface StoreKit {
  readonly kind: StoreKind;
  /** Running jobs are filed under `id % shardCount` (the tick's due lists). */
  jobs(shardCount: number): JobStore;
  groups(): GroupStore;
  /** Runs and dispatch records expire `retentionDays` after their trigger. */
  runs(retentionDays: number): RunStore;
  /** A heartbeat written here expires `expireAfterSeconds` later (default 270 s). */
  registry(options?: { readonly expireAfterSeconds?: number }): RegistryStore;
  /** Refused executor requests, beside the registry (kept 24 h after the last). */
  registrationRefusals(): RegistrationRefusalStore;
  reports(): ReportStore;
  leases(): LeaseStore;
  routeStates(): RouteStateStore;
  slowTracker(): SlowTracker;
  principals(): PrincipalStore;
  auditLog(retentionDays: number): AuditLog;
  workflows(retentionDays: number): WorkflowStore;
  calendars(): CalendarStore;
  backfills(): BackfillStore;
  /** Alert channels, silences and alerts (the outbox the monitors deliver, the history). */
  alerts(): AlertStore;
  /** Where an email channel's alert goes: the SNS alarm topic (DynamoDB), the log (SQLite). */
  alertEmail(): AlertSender['email'];
  /** The ring, and its backlog gauge (the tick's admission control). */
  ring(): RingQueue & RingGauge;
  /**
   * Where a failed run's alarm goes beside the job's webhook: the SNS alarm topic (DynamoDB), or an
   * `alarm` line in the function's log (SQLite: there is no topic on one machine), the first of its
   * job and kind per alert window only; recorded as an alert for the job's (or its group's) alert
   * channels, which the monitors deliver (with the window's count on both paths).
   */
  alarms(): AlarmPublisher;
  /**
   * The job's own alarm path alone (the topic or the log, and the job's webhook): what `alarms()`
   * sends a window's first alarm to, and where the alert sweep sends the window's count.
   */
  legacyAlarms(): AlarmPublisher;
  /** The lane of a ring record, by the queue its `eventSourceARN` names (a record of neither: fast). */
  laneOf(eventSourceArn: string | undefined): RingLane;
}

/** What the adapters share with the function: its SDK clients (DynamoDB), clock and logger. */
export interface StoreRuntime {
  readonly clients: AwsClients;
  readonly clock: Clock;
  readonly logger: Logger;
}
