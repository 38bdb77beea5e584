import {
  DynamoAlertStore,
  DynamoAuditLog,
  DynamoBackfillStore,
  DynamoCalendarStore,
  DynamoGroupStore,
  DynamoJobStore,
  DynamoLeaseStore,
  DynamoPrincipalStore,
  DynamoRegistrationRefusalStore,
  DynamoRegistryStore,
  DynamoReportStore,
  DynamoRouteStateStore,
  DynamoRunStore,
  DynamoSlowTracker,
  DynamoWorkflowStore,
} from '@tickring/aws/dynamodb';
import { createAlarmPublisher, snsAlertEmail } from '@tickring/aws/sns';
import { SqsRingQueue } from '@tickring/aws/sqs';
import type { TableName } from '@tickring/aws/topology';
import { RoutingAlarmPublisher } from '@tickring/core/alerts/use-cases';
import type { DynamoStoreConfig } from './store-config.js';
import type { StoreKit, StoreRuntime } from './store-kit.js';

/** What AWS runs: the DynamoDB tables, the SQS ring queues, the SNS alarm topic. */
export function dynamoStoreKit<T extends TableName>(
  store: DynamoStoreConfig<T>,
  runtime: StoreRuntime,
): StoreKit {
  const { doc, sqs, sns } = runtime.clients;
  const tables: Partial<Record<TableName, string>> = store.tables;
  const table = (name: TableName): string => {
    const physical = tables[name];
    if (physical === undefined) throw new Error(`the ${name} table is not in this function's configuration`);
    return physical;
  };
  const alarmTopic = (): string => {
    if (store.alarmTopicArn === undefined) {
      throw new Error("the alarm topic is not in this function's configuration");
    }
    return store.alarmTopicArn;
  };
  const slowQueueName = store.queueUrls.slow.split('/').at(-1);
  const legacyAlarms = () => createAlarmPublisher({ sns, topicArn: alarmTopic(), logger: runtime.logger });
  return {
    kind: 'dynamodb',
    jobs: (shardCount) =>
      new DynamoJobStore({ doc, jobsTable: table('jobs'), controlTable: table('control'), shardCount }),
    groups: () => new DynamoGroupStore({ doc, groupsTable: table('groups') }),
    runs: (retentionDays) =>
      new DynamoRunStore({ doc, runsTable: table('runs'), controlTable: table('control'), retentionDays }),
    registry: (options = {}) =>
      new DynamoRegistryStore({
        doc,
        registryTable: table('registry'),
        ...(options.expireAfterSeconds === undefined
          ? {}
          : { expireAfterSeconds: options.expireAfterSeconds }),
      }),
    registrationRefusals: () =>
      new DynamoRegistrationRefusalStore({ doc, registryTable: table('registry'), clock: runtime.clock }),
    reports: () => new DynamoReportStore({ doc, controlTable: table('control') }),
    leases: () => new DynamoLeaseStore({ doc, controlTable: table('control') }),
    routeStates: () => new DynamoRouteStateStore({ doc, controlTable: table('control') }),
    slowTracker: () => new DynamoSlowTracker({ doc, controlTable: table('control') }),
    principals: () => new DynamoPrincipalStore({ doc, table: table('principals') }),
    auditLog: (retentionDays) =>
      new DynamoAuditLog({ doc, auditTable: table('audit'), retentionDays, clock: runtime.clock }),
    workflows: (retentionDays) =>
      new DynamoWorkflowStore({
        doc,
        workflowsTable: table('workflows'),
        retentionDays,
        now: () => runtime.clock.now(),
        logger: runtime.logger,
      }),
    calendars: () => new DynamoCalendarStore({ doc, calendarsTable: table('calendars') }),
    backfills: () => new DynamoBackfillStore({ doc, backfillsTable: table('backfills') }),
    alerts: () => new DynamoAlertStore({ doc, alertsTable: table('alerts') }),
    alertEmail: () => snsAlertEmail({ sns, topicArn: alarmTopic() }),
    ring: () => new SqsRingQueue({ sqs, queueUrls: store.queueUrls }),
    alarms: () =>
      new RoutingAlarmPublisher(legacyAlarms(), {
        alerts: new DynamoAlertStore({ doc, alertsTable: table('alerts') }),
        groups: new DynamoGroupStore({ doc, groupsTable: table('groups') }),
        clock: runtime.clock,
        logger: runtime.logger,
      }),
    legacyAlarms,
    // The queue name is the last part of both a queue URL and a queue ARN.
    laneOf: (arn) => (arn?.split(':').at(-1) === slowQueueName ? 'slow' : 'fast'),
  };
}
