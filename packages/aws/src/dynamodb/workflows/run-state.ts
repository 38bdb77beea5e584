import {
  GetCommand,
  QueryCommand,
  type QueryCommandOutput,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { PermanentError } from '@tickring/core/common';
import {
  changedNodeRuns,
  type NodeFireState,
  type NodeRuns,
  stalledSince,
  succeededAt,
  type WorkflowLink,
  type WorkflowRunRecord,
} from '@tickring/core/workflows';
import { type Item, isConditionFailed } from '../util.js';
import { cancellationCodes, Expr } from './expressions.js';
import { isRecord, recordOf, runHeadItem, runOf } from './items.js';
import { HEAD, RESULT_PREFIX, RESULTS_END, runKey, runPk, workflowKey } from './keys.js';
import type { WorkflowResults } from './results.js';
import type { WorkflowsTable } from './table.js';

/** Times getRun reads again when a result was written after the head it read (a save between pages). */
const READ_ATTEMPTS = 5;
/** Run head attributes that only some runs have: a save of a run without them removes them. */
const OPTIONAL_RUN_ATTRIBUTES = [
  'startedAt',
  'finishedAt',
  'activeWorkflowId',
  'activeList',
  'stalledSince',
] as const;

/**
 * A run's state as the engine and the dispatcher move it: read whole, saved from one revision to the
 * next (with the workflow's counts), node runs noted, touched by the sweeps.
 */
export class WorkflowRunStates {
  constructor(
    private readonly table: WorkflowsTable,
    private readonly results: WorkflowResults,
  ) {}

  async getRun(id: string): Promise<WorkflowRunRecord | undefined> {
    for (let attempt = 1; ; attempt++) {
      const items: Item[] = [];
      let start: Item | undefined;
      do {
        const page: QueryCommandOutput = await this.table.doc.send(
          new QueryCommand({
            TableName: this.table.workflowsTable,
            KeyConditionExpression: 'pk = :pk AND sk BETWEEN :head AND :end',
            ExpressionAttributeValues: { ':pk': runPk(id), ':head': HEAD, ':end': RESULTS_END },
            ConsistentRead: true,
            ExclusiveStartKey: start,
          }),
        );
        items.push(...(page.Items ?? []));
        start = page.LastEvaluatedKey;
      } while (start);
      const head = items.find((i) => i.sk === HEAD);
      if (!head) return undefined;
      const revision = Number(head.revision);
      const results = new Map<string, string>();
      let newer = false;
      for (const item of items) {
        if (typeof item.sk !== 'string' || !item.sk.startsWith(RESULT_PREFIX)) continue;
        // A tagged item is never changed (the head names the one it means); an untagged one, of a
        // run saved before tags, changes with its head: one of a later revision was saved between pages.
        const tagged = item.sk.includes('#', RESULT_PREFIX.length);
        if (!tagged && Number(item.rev) > revision) newer = true;
        results.set(item.sk, String(item.result ?? ''));
      }
      if (!newer) return runOf(head, results);
      if (attempt >= READ_ATTEMPTS) {
        throw new Error(`run ${id} kept changing while it was read; read it again`);
      }
    }
  }

  async saveRun(prev: WorkflowRunRecord, next: WorkflowRunRecord): Promise<boolean> {
    if (prev.id !== next.id || prev.workflowId !== next.workflowId) {
      throw new Error(`saveRun: run ${next.id} is not run ${prev.id}`);
    }
    const headUpdate = this.runHeadUpdate(prev, next);
    const counts = workflowHeadUpdate(prev, next);
    const results = this.results.resultPuts(prev, next);
    if (!counts) {
      // No count to move with it (most saves: a node's result, the next nodes fired): the results
      // first, then the head that names them on its condition; no transaction, half the write units.
      // A save that loses the race leaves result items no head names.
      try {
        await this.results.write(results);
        await this.table.doc.send(new UpdateCommand({ TableName: this.table.workflowsTable, ...headUpdate }));
        return true;
      } catch (err) {
        // Another save came first, or is being made in a transaction (the run's start or end, which
        // DynamoDB answers a plain write of the same item with TransactionConflict): read again.
        if (isConditionFailed(err) || (err as { name?: unknown }).name === 'TransactionConflictException') {
          return false;
        }
        throw err;
      }
    }
    try {
      await this.table.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            { Update: { TableName: this.table.workflowsTable, ...headUpdate } },
            { Update: { TableName: this.table.workflowsTable, ...counts.update } },
            ...results,
          ],
        }),
      );
      return true;
    } catch (err) {
      const codes = cancellationCodes(err);
      if (!codes) throw err;
      // Another save came first (or is being made): the caller reads again.
      if (codes[0] === 'ConditionalCheckFailed' || codes.includes('TransactionConflict')) return false;
      if (codes[1] === 'ConditionalCheckFailed') {
        throw new PermanentError(
          `workflow ${next.workflowId}'s counts do not allow run ${next.id} to go from ${prev.status} to ${next.status} (${counts.what})`,
        );
      }
      throw err;
    }
  }

  async noteNodeRuns(link: WorkflowLink, logIds: readonly number[], shard?: number): Promise<void> {
    const e = new Expr();
    const path = `${e.name('nodeRuns')}.${e.name(link.node)}`;
    const attempt = e.value(link.attempt);
    const value: NodeRuns = { attempt: link.attempt, logIds: [...logIds] };
    const [first] = logIds;
    const oneShard = shard !== undefined && Number.isSafeInteger(shard) && shard >= 0 && first !== undefined;
    try {
      await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.workflowsTable,
          Key: runKey(link.runId),
          ...(oneShard
            ? {
                UpdateExpression: `SET ${path}.${e.name('logIds')}[${shard}] = ${e.value(first)}`,
                ConditionExpression: `${path}.${e.name('attempt')} = ${attempt} AND size(${path}.${e.name('logIds')}) > ${e.value(shard)}`,
              }
            : {
                UpdateExpression: `SET ${path} = ${e.value(value)}`,
                ConditionExpression: `attribute_exists(pk) AND (attribute_not_exists(${path}) OR ${path}.${e.name('attempt')} <= ${attempt})`,
              }),
          ...e.attributes(),
        }),
      );
    } catch (err) {
      // A later attempt is recorded already (or the run is gone): nothing to do.
      if (!isConditionFailed(err)) throw err;
    }
  }

  async nodeFireState(link: WorkflowLink): Promise<NodeFireState> {
    const e = new Expr();
    const key = e.name(link.node);
    const { Item: item } = await this.table.doc.send(
      new GetCommand({
        TableName: this.table.workflowsTable,
        Key: runKey(link.runId),
        ProjectionExpression: `${e.name('status')}, ${e.name('nodes')}.${key}, ${e.name('nodeRuns')}.${key}`,
        ExpressionAttributeNames: e.attributes().ExpressionAttributeNames,
        ConsistentRead: true,
      }),
    );
    const node = recordOf(item?.nodes)[link.node];
    const noted = recordOf(item?.nodeRuns)[link.node];
    return {
      awaited:
        item?.status === 'RUNNING' &&
        isRecord(node) &&
        node.status === 'RUNNING' &&
        Number(node.attempt) === link.attempt,
      claimed: isRecord(noted) && Number(noted.attempt) === link.attempt,
    };
  }

  async touch(id: string, movedAt: number): Promise<void> {
    try {
      await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.workflowsTable,
          Key: runKey(id),
          UpdateExpression: 'SET movedAt = :at, stalledSince = :since, expiresAt = :expires',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: {
            ':at': movedAt,
            ':since': stalledSince(movedAt),
            ':expires': this.table.expiry(movedAt),
          },
        }),
      );
    } catch (err) {
      if (!isConditionFailed(err)) throw err;
    }
  }

  /**
   * The update of a run's head from `prev` to `next`, on condition that the stored revision and
   * status are prev's. nodeRuns is written per node that changed, never whole: the dispatcher notes
   * node runs beside the engine's saves (noteNodeRuns), and a save must not undo a note.
   */
  private runHeadUpdate(prev: WorkflowRunRecord, next: WorkflowRunRecord) {
    const e = new Expr();
    const item = runHeadItem(next, this.table.runExpiry(next));
    const set: string[] = [];
    const remove: string[] = [];
    for (const [name, value] of Object.entries(item)) {
      if (name === 'pk' || name === 'sk' || name === 'nodeRuns') continue;
      set.push(`${e.name(name)} = ${e.value(value)}`);
    }
    for (const name of OPTIONAL_RUN_ATTRIBUTES) {
      if (!(name in item)) remove.push(e.name(name));
    }
    for (const [key, after] of changedNodeRuns(prev, next)) {
      const runs = e.name('nodeRuns');
      if (after)
        set.push(
          `${runs}.${e.name(key)} = ${e.value({ attempt: after.attempt, logIds: [...after.logIds] })}`,
        );
      else remove.push(`${runs}.${e.name(key)}`);
    }
    return {
      Key: runKey(next.id),
      UpdateExpression: `SET ${set.join(', ')}${remove.length ? ` REMOVE ${remove.join(', ')}` : ''}`,
      ConditionExpression: `${e.name('revision')} = ${e.value(prev.state.revision)} AND ${e.name('status')} = ${e.value(prev.status)}`,
      ...e.attributes(),
    };
  }
}

/**
 * The update of the workflow's counts that a run's status change makes, with its condition; none
 * when the status stays (or moves between ends).
 */
/**
 * The update of the workflow's head that a run's status change makes: its counts, and when the run
 * ended SUCCEEDED (always from RUNNING: the count moves too) its last success, in one update.
 */
function workflowHeadUpdate(prev: WorkflowRunRecord, next: WorkflowRunRecord) {
  const counts = workflowCountsUpdate(prev, next);
  const success = succeededAt(prev, next);
  if (success === undefined || counts === undefined) return counts;
  const { update } = counts;
  return {
    ...counts,
    update: {
      ...update,
      UpdateExpression: `SET lastSuccessAt = :succeededAt ${update.UpdateExpression}`,
      ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':succeededAt': success },
    },
  };
}

function workflowCountsUpdate(
  prev: WorkflowRunRecord,
  next: WorkflowRunRecord,
):
  | {
      readonly what: string;
      readonly update: {
        Key: Item;
        UpdateExpression: string;
        ConditionExpression: string;
        ExpressionAttributeValues: Item;
      };
    }
  | undefined {
  const from = prev.status;
  const to = next.status;
  if (from === to) return undefined;
  if (to === 'QUEUED') throw new Error(`run ${next.id} cannot go back from ${from} to QUEUED`);
  const Key = workflowKey(next.workflowId);
  if (from === 'QUEUED') {
    // The buffered run leaves the buffer: to running, or ended (cancelled) without running.
    const start = to === 'RUNNING';
    return {
      what: start ? 'the buffered run starts' : 'the buffered run ends',
      update: {
        Key,
        UpdateExpression: `REMOVE bufferedRunId${start ? ' ADD activeRuns :one' : ''}`,
        ConditionExpression: 'bufferedRunId = :id',
        ExpressionAttributeValues: { ':id': next.id, ...(start ? { ':one': 1 } : {}) },
      },
    };
  }
  if (from === 'RUNNING') {
    return {
      what: 'one running run less',
      update: {
        Key,
        UpdateExpression: 'ADD activeRuns :minus',
        // A count that would go below 0 is a bug: refused loudly rather than kept negative.
        ConditionExpression: 'attribute_exists(pk) AND activeRuns > :zero',
        ExpressionAttributeValues: { ':minus': -1, ':zero': 0 },
      },
    };
  }
  if (to === 'RUNNING') {
    // An ended run retried.
    return {
      what: 'one running run more',
      update: {
        Key,
        UpdateExpression: 'ADD activeRuns :one',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':one': 1 },
      },
    };
  }
  return undefined;
}
