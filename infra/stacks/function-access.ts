import type { FunctionName, TableName } from '@tickring/aws/topology';
import type { TableAccess } from '../constructs/service-function.js';

/**
 * What each function may touch, and so which env vars it gets: the DynamoDB actions per table (on
 * the table and its indexes), the ring queues, the alarm topic, which token secret, and whether it
 * invokes Lambda executors. Each list is what the function's code calls today (the adapters in
 * `shared/adapters/dynamodb/`, through the use-cases the handler runs); when a function starts
 * calling something new, add it here, or it gets AccessDenied in AWS (the local stand-ins check no
 * IAM). TransactWriteItems needs no action of its own: each Put in it needs dynamodb:PutItem.
 */
/** The stack's generated secrets (TokenSecrets), each with its `*_SECRET_ARN` env var. */
export type SecretName = 'adminToken' | 'accessToken' | 'tokenKey' | 'edgeSecret';

export interface FunctionAccess {
  readonly tables: Readonly<Partial<Record<TableName, TableAccess>>>;
  /** SendMessage (and SendMessageBatch) on both ring queues; the URLs go into the env. */
  readonly sendToRing: boolean;
  /** sns:Publish on the alarm topic (job failure alarms); its ARN goes into the env. */
  readonly publishAlarms: boolean;
  /** Read access to exactly the secret(s) the function checks or sends. */
  readonly secrets: readonly SecretName[];
  /** lambda:InvokeFunction on executor-runner and the configured Lambda executors. */
  readonly invokeExecutors: boolean;
  /**
   * Runs the workflow engine, which hands the nodes it fires to the dispatcher: lambda:InvokeFunction
   * on the dispatcher and its name in TICKRING_DISPATCHER_FUNCTION (the dispatcher itself: its own).
   */
  readonly handOffToDispatcher: boolean;
}

export const FUNCTION_ACCESS: Readonly<Record<FunctionName, FunctionAccess>> = {
  // run-tick: Query byDue + BatchGetItem (pre-read), conditional UpdateItem (advance the schedule);
  // shard leases are conditional UpdateItems on control items; fires go out with SendMessageBatch;
  // the fast queue's backlog (GetQueueAttributes, part of the send grant) sets its admission share.
  // A schedule that stops itself (its bounds reached) is recorded in the audit log: one PutItem.
  // A due job's calendars are read (GetItem, each at most once per iteration).
  'scheduler-tick': {
    tables: {
      jobs: ['Query', 'BatchGetItem', 'UpdateItem'],
      control: ['UpdateItem'],
      audit: ['PutItem'],
      calendars: ['GetItem'],
    },
    sendToRing: true,
    publishAlarms: false,
    secrets: [],
    invokeExecutors: false,
    handOffToDispatcher: false,
  },
  // dispatch-fire: a fire planned with its logId is claimed by a conditional PutItem of its run (GetItem
  // of its claim token after a lost answer); other fires: fire record + runs in one TransactWriteItems
  // (PutItem on control and runs), GetItem of the fire record after a duplicate, the job's logId
  // counter / slow counters / report counters (UpdateItem on control), route state (Get/PutItem on
  // control), a batch's jobs (BatchGetItem, GetItem) + groups (GetItem), slow flag (UpdateItem on
  // jobs), executors online (Query registry), a refusal and the dispatch record (UpdateItem on runs),
  // runs of a redelivered fire (BatchGetItem) and their dispatch records (GetItem); misfires: a run
  // rewritten as skipped (UpdateItem on runs), the order check (Query of the job's runs, Limit 1) and
  // the job's catch-up mark (UpdateItem on control); run-outcome for
  // refused triggers: retry (send), alarm (publish). The access
  // token goes to HTTP executors; Lambda executors are invoked.
  // Workflows (the engine, DynamoWorkflowStore): a starter job's fire starts its workflow's run
  // (workflow GetItem; run head + counts in one TransactWriteItems, Put and Update, GetItem when the
  // reasons are missing; CANCEL_PREVIOUS: the active index Query + BatchGetItem, then each cancel);
  // a node's fire asks whether it is still awaited (GetItem) and notes its job runs (UpdateItem);
  // a refused or dropped node's outcome advances the run (Query of its partition, version GetItem,
  // save: TransactWriteItems of Update and result Puts; broadcast shards PutItem + Query).
  dispatcher: {
    tables: {
      jobs: ['GetItem', 'BatchGetItem', 'UpdateItem'],
      groups: ['GetItem'],
      runs: ['PutItem', 'GetItem', 'BatchGetItem', 'UpdateItem', 'Query'],
      registry: ['Query'],
      control: ['GetItem', 'PutItem', 'UpdateItem'],
      workflows: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem'],
      // A job its failure policy paused (a refused trigger's final outcome) is recorded: one PutItem.
      audit: ['PutItem'],
      // An alarm recorded as an alert: the window's alert (GetItem, conditional PutItem), the silences (Query).
      alerts: ['GetItem', 'PutItem', 'Query'],
    },
    sendToRing: true,
    publishAlarms: true,
    secrets: ['accessToken', 'tokenKey'],
    invokeExecutors: true,
    handOffToDispatcher: true,
  },
  // executor-callbacks + registry: the batch's runs and their jobs (BatchGetItem) to tell whether a
  // result needs an outcome mark, complete a run (conditional UpdateItem, GetItem when it was done
  // already), heartbeats (UpdateItem) and removal (DeleteItem) in registry, refused executor requests
  // beside them (UpdateItem; PutItem starts one again past its TTL), report counters
  // (UpdateItem on control); run-outcome: job (GetItem), retries and child jobs (send), alarms. The
  // token executors present is checked against their group's own (groups GetItem) or the global one.
  // Workflows: a node's run that ended advances its workflow run (the engine through run-outcome):
  // broadcast shard outcomes (PutItem, Query), the run (Query of its partition), its definition
  // version (GetItem), the save (TransactWriteItems: Update of the run and the workflow's counts,
  // Put of node results); a run's end starts the buffered one (workflow GetItem, the same save).
  // Failure policy and deadline (run-outcome): the job's outcome history (GetItem, conditional PutItem
  // on control); a pause is a job write (BatchGetItem, conditional PutItem on jobs) and an audit PutItem.
  callback: {
    tables: {
      jobs: ['GetItem', 'BatchGetItem', 'PutItem'],
      runs: ['GetItem', 'BatchGetItem', 'UpdateItem'],
      groups: ['GetItem'],
      registry: ['UpdateItem', 'PutItem', 'DeleteItem'],
      control: ['GetItem', 'PutItem', 'UpdateItem'],
      audit: ['PutItem'],
      workflows: ['GetItem', 'Query', 'PutItem', 'UpdateItem'],
      // An alarm recorded as an alert: the window's alert (GetItem, conditional PutItem), the silences (Query).
      alerts: ['GetItem', 'PutItem', 'Query'],
    },
    sendToRing: true,
    publishAlarms: true,
    secrets: ['accessToken', 'tokenKey'],
    invokeExecutors: false,
    handOffToDispatcher: true,
  },
  // The admin API. admin-groups, admin-jobs: group CRUD (Get/Put/Delete, Scan to list), job CRUD
  // (Get, BatchGet, Put, Delete; Scan or Query byApp to list), the job id sequence (UpdateItem on
  // control). admin-trigger: a manual trigger goes on the ring (send). admin-runs: log list (Query
  // a job's runs, or the dispatch pages and BatchGetItem their runs), one run (GetItem), kill (conditional UpdateItem of the run, report counters);
  // log output and kill reach HTTP executors with the access token (no IAM; Lambda executors are
  // not invoked for them). admin-executors, admin-dashboard: registry (Query: heartbeats and refusals), report counters
  // (BatchGetItem on control). The edge secret tells requests through the console's CloudFront
  // (whose viewer address is then believed) from any other.
  api: {
    tables: {
      jobs: ['GetItem', 'BatchGetItem', 'Query', 'Scan', 'PutItem', 'DeleteItem'],
      groups: ['GetItem', 'Scan', 'PutItem', 'UpdateItem', 'DeleteItem'],
      runs: ['GetItem', 'BatchGetItem', 'Query', 'UpdateItem'],
      registry: ['Query'],
      control: ['BatchGetItem', 'UpdateItem'],
      // Users, sessions, API tokens and failed-login counters: only the api reads or writes them.
      principals: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'],
      // The audit log: written once per change, read newest first (by day, or by target).
      audit: ['PutItem', 'Query'],
      // admin-workflows: the id sequence (UpdateItem), create / edit (TransactWriteItems: Put of the
      // head and the version, Update), list and runs (index Query + BatchGetItem), one workflow /
      // version (GetItem), one run (Query of its partition), schedule (UpdateItem), delete
      // (conditional DeleteItem, then its versions' expiry: Query + UpdateItem); trigger, cancel and
      // retry through the engine (as the dispatcher: GetItem, Query, BatchGetItem, Put/UpdateItem).
      workflows: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'],
      // admin-calendars: one calendar (GetItem), the list (Query of its one partition), create and
      // change (conditional PutItem), delete (conditional DeleteItem). Only the api reads them today.
      calendars: ['GetItem', 'Query', 'PutItem', 'DeleteItem'],
      // admin-backfills: one backfill (GetItem), a job's list (Query), start (PutItem of it and its job's
      // active mark, in a transaction), its first step and a cancel (conditional PutItem; an end also
      // deletes the mark: DeleteItem).
      backfills: ['GetItem', 'Query', 'PutItem', 'DeleteItem'],
      // admin-alerts: channels and silences (Query of their partition, conditional PutItem for a create
      // or a change, DeleteItem; a channel's delete first scans the jobs and groups naming it, a job's or
      // group's save naming channels reads their partition), the history (index Query); an alarm raised
      // here recorded as an alert (GetItem, PutItem). A channel's test message: an HTTP POST, or the
      // alarm topic for email (publishAlarms).
      alerts: ['GetItem', 'Query', 'PutItem', 'DeleteItem'],
    },
    sendToRing: true,
    // A workflow run can fail in the api (a retried node failing at once, a killed node): alarmed here.
    publishAlarms: true,
    secrets: ['adminToken', 'accessToken', 'tokenKey', 'edgeSecret'],
    invokeExecutors: false,
    handOffToDispatcher: true,
  },
  // monitors: overdue runs (Query dispatch and watch pages, BatchGetItem the runs, UpdateItem the
  // watch pages, GetItem/PutItem the watch cursor), group (GetItem), executors online
  // (Query registry); a lost run is completed (UpdateItem, GetItem) and goes down run-outcome (job
  // GetItem, report counters, retry send, alarm publish). The access token goes with `beat` to executors.
  // Workflows: the stalled-run sweep (the stalled index Query, touch UpdateItem; each run re-driven:
  // Query of its partition, version GetItem, the buffered run started: workflow GetItem and a save),
  // and a lost node run's outcome advancing its run as in the callback (shards PutItem + Query, save:
  // TransactWriteItems of Update and result Puts).
  // The jobPolicies sweep: the job list (Scan), a paused job started again (BatchGetItem, conditional
  // PutItem on jobs, audit PutItem), a deadline's outcome history (GetItem on control) and its claim
  // (conditional PutItem on control); a lost run's final outcome as in the callback.
  // The deadMan sweep: the job list (Query of the running jobs), per job checked its audit records in
  // the window (audit Query by target), the calendars it names (GetItem), its runs (Query of its
  // partition) and the alarm's claim (conditional PutItem on control); a workflow's starter job also
  // its workflow (GetItem) and the workflow's runs of the window (index Query, BatchGetItem the heads).
  // Workflows' deadlines: the workflow list (index Query, BatchGetItem the heads) and a missed
  // window's claim (conditional PutItem on workflows).
  monitors: {
    tables: {
      jobs: ['GetItem', 'BatchGetItem', 'Scan', 'PutItem'],
      groups: ['GetItem'],
      runs: ['Query', 'BatchGetItem', 'GetItem', 'PutItem', 'UpdateItem'],
      registry: ['Query'],
      control: ['GetItem', 'PutItem', 'UpdateItem'],
      audit: ['PutItem', 'Query'],
      calendars: ['GetItem'],
      workflows: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem'],
      // The backfill sweep: the active marks (Query) and their backfills (BatchGetItem), each step a
      // conditional PutItem (an end deletes the mark: DeleteItem); its fires' runs are read
      // (runs BatchGetItem) and their logIds allocated (control UpdateItem), the fires sent to the ring.
      backfills: ['Query', 'BatchGetItem', 'GetItem', 'PutItem', 'DeleteItem'],
      // The alert delivery sweep: the due index (Query) and its alerts (BatchGetItem), the channels
      // (GetItem), each alert's attempts (conditional PutItem); alarms recorded as alerts (GetItem,
      // PutItem, the silences' Query). Email channels publish to the alarm topic.
      alerts: ['Query', 'BatchGetItem', 'GetItem', 'PutItem'],
    },
    sendToRing: true,
    publishAlarms: true,
    secrets: ['accessToken', 'tokenKey'],
    invokeExecutors: false,
    handOffToDispatcher: true,
  },
  // The Lambda executor: runs a built-in handler and reports to the admin over HTTP with the access token.
  'executor-runner': {
    tables: {},
    sendToRing: false,
    publishAlarms: false,
    secrets: ['accessToken'],
    invokeExecutors: false,
    handOffToDispatcher: false,
  },
};
