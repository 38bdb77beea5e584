import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  type CompleteOptions,
  type CompleteOutcome,
  HANDLE_CODE,
  type HandleResult,
  OUTCOME_GRACE_MS,
  type Run,
  TRIGGER_CODE,
  truncateMessage,
} from '@tickring/core/runs';
import { RUNS_OUTCOME_PENDING_INDEX } from '../../topology/tables.js';
import { isConditionFailed } from '../util.js';
import { fromItem } from './items.js';
import { OUTCOME_PENDING_BUCKET, runKey } from './keys.js';
import type { RunsTable } from './table.js';

/** A run's result and what follows it: the sparse outcome index of pending consequences, the alarm. */
export class RunResults {
  constructor(private readonly table: RunsTable) {}

  /**
   * One conditional update. `'if-needed'` (see CompleteOptions): a failure is written marked; a
   * success is written unmarked on condition that its run recorded no child jobs and tracks no
   * outcome (failure policy, deadline), and only when that
   * fails for want of it (children, or none recorded) written again marked: a plain success costs
   * one write, a success with children a refused write more.
   */
  async complete(
    logId: number,
    result: HandleResult,
    options: CompleteOptions = {},
  ): Promise<CompleteOutcome> {
    const mark = options.markOutcomePending ?? true;
    const plainSuccess = mark === 'if-needed' && result.handleCode === HANDLE_CODE.success;
    try {
      const run = plainSuccess
        ? await this.storeResult(logId, result, { mark: false, unlessChildren: true }).catch((err) => {
            if (!isConditionFailed(err)) throw err;
            return this.storeResult(logId, result, { mark: true, unlessChildren: false });
          })
        : await this.storeResult(logId, result, { mark: mark !== false, unlessChildren: false });
      return { kind: 'completed', run };
    } catch (err) {
      if (!isConditionFailed(err)) throw err;
      const run = await this.table.get(logId);
      return run ? { kind: 'already-finished', run } : { kind: 'unknown' };
    }
  }

  private async storeResult(
    logId: number,
    result: HandleResult,
    how: { readonly mark: boolean; readonly unlessChildren: boolean },
  ): Promise<Run> {
    const updated = await this.table.doc.send(
      new UpdateCommand({
        TableName: this.table.runsTable,
        Key: runKey(logId),
        UpdateExpression: `SET handleCode = :code, handleMsg = :msg, handleTime = :at${
          how.mark ? ', outcomeBucket = :pending, outcomeDueAt = :due' : ''
        }${
          // A sampled-out success: its shorter expiry, decided at the claim, in this same write.
          result.handleCode === HANDLE_CODE.success
            ? ', expiresAt = if_not_exists(successExpiresAt, expiresAt)'
            : ''
        }`,
        // `takesResult`: no result yet, and not recorded as skipped (the skip was its end).
        ConditionExpression: `attribute_exists(pk) AND handleCode = :zero AND triggerCode <> :skipped${
          how.unlessChildren ? ' AND size(childJobIds) = :zero AND attribute_not_exists(tracksOutcome)' : ''
        }`,
        ExpressionAttributeValues: {
          ':code': result.handleCode,
          ':msg': truncateMessage(result.handleMsg),
          ':at': result.handleTime,
          ':zero': 0,
          ':skipped': TRIGGER_CODE.skipped,
          ...(how.mark
            ? { ':pending': OUTCOME_PENDING_BUCKET, ':due': result.handleTime + OUTCOME_GRACE_MS }
            : {}),
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return fromItem(updated.Attributes ?? {});
  }

  async clearOutcomePending(logId: number): Promise<void> {
    await this.table.conditionalUpdate({
      Key: runKey(logId),
      UpdateExpression: 'REMOVE outcomeBucket, outcomeDueAt',
      ConditionExpression: 'attribute_exists(pk)',
    });
  }

  async findOutcomePending(nowMs: number, limit: number): Promise<Run[]> {
    const result = await this.table.doc.send(
      new QueryCommand({
        TableName: this.table.runsTable,
        IndexName: RUNS_OUTCOME_PENDING_INDEX,
        KeyConditionExpression: 'outcomeBucket = :bucket AND outcomeDueAt < :now',
        ExpressionAttributeValues: { ':bucket': OUTCOME_PENDING_BUCKET, ':now': nowMs },
        Limit: limit,
      }),
    );
    const items = await this.table.readRuns((result.Items ?? []).map((i) => Number(i.sk)));
    // The index lags the table: keep only runs still marked.
    return items.filter((item) => item.outcomeBucket === OUTCOME_PENDING_BUCKET).map(fromItem);
  }

  async setAlarmStatus(logId: number, alarmStatus: number): Promise<void> {
    await this.table.conditionalUpdate({
      Key: runKey(logId),
      UpdateExpression: 'SET alarmStatus = :status',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':status': alarmStatus },
    });
  }
}
