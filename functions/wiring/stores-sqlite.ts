import { resolve } from 'node:path';
import {
  type AlarmChannel,
  loggedAlertEmail,
  MultiChannelAlarmPublisher,
  webhookChannel,
} from '@tickring/aws/sns';
import { RoutingAlarmPublisher } from '@tickring/core/alerts/use-cases';
import type { Logger } from '@tickring/core/common';
import type { RingLane } from '@tickring/core/dispatch';
import {
  EmbeddedDatabase,
  SqliteAlertStore,
  SqliteAuditLog,
  SqliteBackfillStore,
  SqliteCalendarStore,
  SqliteGroupStore,
  SqliteJobStore,
  SqliteLeaseStore,
  SqlitePrincipalStore,
  SqliteRegistrationRefusalStore,
  SqliteRegistryStore,
  SqliteReportStore,
  SqliteRingQueue,
  SqliteRouteStateStore,
  SqliteRunStore,
  SqliteSlowTracker,
  SqliteWorkflowStore,
} from '@tickring/embedded/sqlite';
import type { SqliteStoreConfig } from './store-config.js';
import type { StoreKit, StoreRuntime } from './store-kit.js';

const databases = new Map<string, EmbeddedDatabase>();
/** The databases whose background failures a logger already reports. */
const reported = new WeakSet<EmbeddedDatabase>();

/**
 * The process's one connection to `file`: every function hosted in the process shares it (their
 * SQL is synchronous, so one connection serves them all without interleaving), opened on first use.
 * The first `logger` given reports the database's background failures (its WAL checkpointer's), by
 * name and with their count.
 */
export function sharedEmbeddedDatabase(file: string, logger?: Logger): EmbeddedDatabase {
  const key = file === ':memory:' ? file : resolve(file);
  let database = databases.get(key);
  if (!database) {
    // Checkpoints off the connection every function writes through (a file; not :memory:).
    database = new EmbeddedDatabase({ path: key, backgroundCheckpoints: true });
    databases.set(key, database);
  }
  if (logger && !reported.has(database)) {
    reported.add(database);
    database.onBackgroundFailure((failure) => logger.error('background sweep failed', { ...failure }));
  }
  return database;
}

/** Closes the process's connection to `file` (the local stack's stop); a later use opens it again. */
export function closeSharedEmbeddedDatabase(file: string): void {
  const key = file === ':memory:' ? file : resolve(file);
  databases.get(key)?.close();
  databases.delete(key);
}

/** The name a ring record's `eventSourceARN` ends with, per lane (as an SQS queue's ARN ends with its name). */
const RING_NAMES: Readonly<Record<RingLane, string>> = { fast: 'ring-fast', slow: 'ring-slow' };

/** The `eventSourceARN` of a record the local ring poller hands the dispatcher from a lane of the SQLite ring. */
export function sqliteRingSourceArn(lane: RingLane): string {
  return `arn:tickring:sqlite:local:0:${RING_NAMES[lane]}`;
}

/**
 * With no alarm topic on one machine, an alarm is an error line in the function's log (the whole
 * payload as attributes), beside the job's webhook.
 */
function logChannel(logger: Logger): AlarmChannel {
  return {
    name: 'log',
    async deliver(_alarm, payload) {
      logger.error('alarm', {
        summary: payload.summary,
        job: payload.job,
        run: payload.run,
        workflow: payload.workflow,
        window: payload.window,
      });
      return true;
    },
  };
}

/** The embedded engine: every store and the ring in the one SQLite file of `store.file`. */
export function sqliteStoreKit(store: SqliteStoreConfig, runtime: StoreRuntime): StoreKit {
  const { clock, logger } = runtime;
  const database = sharedEmbeddedDatabase(store.file, logger);
  const legacyAlarms = () => new MultiChannelAlarmPublisher([logChannel(logger), webhookChannel()], logger);
  return {
    kind: 'sqlite',
    jobs: (shardCount) => new SqliteJobStore({ database, shardCount }),
    groups: () => new SqliteGroupStore({ database }),
    runs: (retentionDays) => new SqliteRunStore({ database, retentionDays, now: () => clock.now() }),
    registry: (options = {}) =>
      new SqliteRegistryStore({
        database,
        clock,
        ...(options.expireAfterSeconds === undefined
          ? {}
          : { expireAfterSeconds: options.expireAfterSeconds }),
      }),
    registrationRefusals: () => new SqliteRegistrationRefusalStore({ database, clock }),
    reports: () => new SqliteReportStore({ database }),
    leases: () => new SqliteLeaseStore({ database }),
    routeStates: () => new SqliteRouteStateStore({ database, clock }),
    slowTracker: () => new SqliteSlowTracker({ database, clock }),
    principals: () => new SqlitePrincipalStore({ database, clock }),
    auditLog: (retentionDays) => new SqliteAuditLog({ database, retentionDays, clock }),
    workflows: (retentionDays) => new SqliteWorkflowStore({ database, retentionDays, clock }),
    calendars: () => new SqliteCalendarStore({ database }),
    backfills: () => new SqliteBackfillStore({ database }),
    alerts: () => new SqliteAlertStore({ database }),
    alertEmail: () => loggedAlertEmail(logger),
    ring: () => new SqliteRingQueue({ database, clock }),
    alarms: () =>
      new RoutingAlarmPublisher(legacyAlarms(), {
        alerts: new SqliteAlertStore({ database }),
        groups: new SqliteGroupStore({ database }),
        clock,
        logger,
      }),
    legacyAlarms,
    laneOf: (arn) => (arn?.split(':').at(-1) === RING_NAMES.slow ? 'slow' : 'fast'),
  };
}
