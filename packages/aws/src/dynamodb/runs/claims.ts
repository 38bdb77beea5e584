import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import {
  type ClaimedSkip,
  type ClaimTakeOver,
  type CreateFireResult,
  firstPlannedLogId,
  jobIdOfLogId,
  OUTCOME_GRACE_MS,
  type PlannedRunHead,
  type Run,
  type SkipRangeExtension,
  type StoredRun,
  TRIGGER_CODE,
  type TriggerRefusal,
  truncateMessage,
  UNPLANNED_LOG_ID_OFFSET,
  unplannedLogId,
} from '@tickring/core/runs';
import { isConditionFailed } from '../util.js';
import { fromItem, toItem } from './items.js';
import { catchUpKey, fireKey, hourOf, OUTCOME_PENDING_BUCKET, runKey, SALT } from './keys.js';
import type { RunsTable } from './table.js';

/**
 * Runs made and taken under a claim token: logIds, fire records, claims and their takeover, the
 * catch-up mark, and the end a claim can have before any result (skipped, refused).
 */
export class RunClaims {
  constructor(private readonly table: RunsTable) {}

  async allocateLogIds(jobId: number, count: number): Promise<number[]> {
    if (count <= 0) return [];
    const result = await this.table.doc.send(
      new UpdateCommand({
        TableName: this.table.controlTable,
        Key: { pk: `seq#runs#${jobId}` },
        UpdateExpression: 'ADD #v :n',
        ExpressionAttributeNames: { '#v': 'value' },
        ExpressionAttributeValues: { ':n': count },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    const first = Number(result.Attributes?.value) - count;
    if (first + count > UNPLANNED_LOG_ID_OFFSET) {
      throw new Error(`job ${jobId} has used up its ${UNPLANNED_LOG_ID_OFFSET} unplanned logIds`);
    }
    return Array.from({ length: count }, (_, i) => unplannedLogId(jobId, first + i));
  }

  newClaimToken(nowMs: number): string {
    const sk = nowMs * SALT + Math.floor(this.table.random() * SALT);
    return `${hourOf(nowMs)}/${sk}`;
  }

  async createFire(dedupKey: string, runs: readonly Run[], claimToken: string): Promise<CreateFireResult> {
    const { doc, runsTable, controlTable } = this.table;
    const expiresAt = this.table.expiresAt(runs[0]?.triggerTime ?? Date.now());
    try {
      await doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: controlTable,
                Item: { pk: fireKey(dedupKey), logIds: runs.map((r) => r.logId), claimToken, expiresAt },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            ...runs.map((run) => ({
              Put: {
                TableName: runsTable,
                Item: toItem(run, claimToken, this.expiryOf(run)),
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            })),
          ],
        }),
      );
      return { created: true };
    } catch (err) {
      const cancelled =
        err instanceof TransactionCanceledException ||
        (err instanceof Error && err.name === 'TransactionCanceledException');
      if (!cancelled) throw err;
      const { Item: fire } = await doc.send(
        new GetCommand({ TableName: controlTable, Key: { pk: fireKey(dedupKey) }, ConsistentRead: true }),
      );
      if (!fire) throw err; // cancelled for another reason (e.g. a logId collision): let it be retried
      // Ours: an earlier attempt of this claim committed although its answer was lost.
      if (fire.claimToken === claimToken) return { created: true };
      return { created: false, logIds: ((fire.logIds as number[] | undefined) ?? []).map(Number) };
    }
  }

  async claim(run: Run, claimToken: string): Promise<CreateFireResult> {
    try {
      await this.table.doc.send(
        new PutCommand({
          TableName: this.table.runsTable,
          Item: toItem(run, claimToken, this.expiryOf(run)),
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return { created: true };
    } catch (err) {
      if (!isConditionFailed(err)) throw err;
    }
    const { Item: existing } = await this.table.doc.send(
      new GetCommand({
        TableName: this.table.runsTable,
        Key: runKey(run.logId),
        ProjectionExpression: 'claimToken',
        ConsistentRead: true,
      }),
    );
    return existing?.claimToken === claimToken ? { created: true } : { created: false, logIds: [run.logId] };
  }

  async getMany(logIds: readonly number[]): Promise<StoredRun[]> {
    const items = await this.table.readRuns(logIds);
    return items.map((item) => ({
      ...fromItem(item),
      claimToken: String(item.claimToken ?? ''),
      claimAt: Number(item.claimAt ?? 0),
      expiresAt: Number(item.expiresAt ?? 0),
    }));
  }

  private expiryOf(run: Run) {
    return { expiresAt: this.table.runExpiresAt(run), successExpiresAt: this.table.successExpiresAt(run) };
  }

  async reclaim(logId: number, claim: ClaimTakeOver): Promise<boolean> {
    const msg = claim.triggerMsg === undefined ? {} : { ':msg': truncateMessage(claim.triggerMsg) };
    return this.table.conditionalUpdate({
      Key: runKey(logId),
      UpdateExpression: `SET claimAt = :now, claimToken = :token${claim.triggerMsg === undefined ? '' : ', triggerMsg = :msg'}`,
      ConditionExpression:
        'claimToken = :previous AND claimAt < :stale AND triggerCode = :ok AND handleCode = :zero',
      ExpressionAttributeValues: {
        ':now': claim.nowMs,
        ':token': claim.claimToken,
        ':previous': claim.previousToken,
        ':stale': claim.staleBeforeMs,
        ':ok': TRIGGER_CODE.success,
        ':zero': 0,
        ...msg,
      },
    });
  }

  async laterPlannedRun(logId: number): Promise<{ logId: number; scheduledTime: number } | undefined> {
    const jobId = jobIdOfLogId(logId);
    const result = await this.table.doc.send(
      new QueryCommand({
        TableName: this.table.runsTable,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :low AND :high',
        ExpressionAttributeValues: {
          ':pk': `J#${jobId}`,
          ':low': logId + 1,
          ':high': firstPlannedLogId(jobId) + UNPLANNED_LOG_ID_OFFSET - 1,
        },
        // The key and the time, for the reason the fire is skipped; the read costs the same.
        ProjectionExpression: 'sk, scheduledTime',
        ConsistentRead: true,
        Limit: 1,
      }),
    );
    const [item] = result.Items ?? [];
    return item && { logId: Number(item.sk), scheduledTime: Number(item.scheduledTime) };
  }

  async latestPlannedRun(jobId: number, atOrBelow?: number): Promise<PlannedRunHead | undefined> {
    const first = firstPlannedLogId(jobId);
    const result = await this.table.doc.send(
      new QueryCommand({
        TableName: this.table.runsTable,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :low AND :high',
        ExpressionAttributeValues: {
          ':pk': `J#${jobId}`,
          ':low': first,
          ':high': Math.min(first + UNPLANNED_LOG_ID_OFFSET - 1, atOrBelow ?? Number.MAX_SAFE_INTEGER),
        },
        ProjectionExpression: 'sk, scheduledTime, triggerCode, skippedCount, skippedUntil',
        ScanIndexForward: false,
        ConsistentRead: true,
        Limit: 1,
      }),
    );
    const [item] = result.Items ?? [];
    if (!item) return undefined;
    return {
      logId: Number(item.sk),
      scheduledTime: Number(item.scheduledTime),
      triggerCode: Number(item.triggerCode),
      ...(item.skippedCount === undefined ? {} : { skippedCount: Number(item.skippedCount) }),
      ...(item.skippedUntil === undefined ? {} : { skippedUntil: Number(item.skippedUntil) }),
    };
  }

  async extendSkipRange(logId: number, extension: SkipRangeExtension): Promise<boolean> {
    const msg = extension.triggerMsg === undefined ? {} : { ':msg': truncateMessage(extension.triggerMsg) };
    return this.table.conditionalUpdate({
      Key: runKey(logId),
      UpdateExpression:
        'SET skippedCount = if_not_exists(skippedCount, :one) + :add, skippedUntil = :until' +
        `${extension.triggerMsg === undefined ? '' : ', triggerMsg = :msg'}`,
      // A range without `skippedUntil` ends at its own fire.
      ConditionExpression:
        'triggerCode = :skipped AND (skippedUntil = :expected OR ' +
        '(attribute_not_exists(skippedUntil) AND scheduledTime = :expected))',
      ExpressionAttributeValues: {
        ':one': 1,
        ':add': extension.addCount,
        ':until': extension.until,
        ':skipped': TRIGGER_CODE.skipped,
        ':expected': extension.expectedUntil,
        ...msg,
      },
    });
  }

  async skipClaimed(logId: number, skip: ClaimedSkip): Promise<boolean> {
    const { takeOver } = skip;
    return this.table.conditionalUpdate({
      Key: runKey(logId),
      // A run refused at its claim (no executor) was marked outcome-pending: a skipped one has no outcome.
      UpdateExpression:
        'SET triggerCode = :skipped, triggerMsg = :msg, executorAddress = :none, dispatchedAt = :zero' +
        `${takeOver ? ', claimAt = :now, claimToken = :token' : ''} REMOVE outcomeBucket, outcomeDueAt`,
      ConditionExpression: takeOver
        ? 'claimToken = :previous AND claimAt < :stale AND triggerCode = :ok AND handleCode = :zero'
        : 'claimToken = :token AND triggerCode IN (:ok, :fail) AND handleCode = :zero',
      ExpressionAttributeValues: {
        ':skipped': TRIGGER_CODE.skipped,
        ':msg': truncateMessage(skip.triggerMsg),
        ':none': '',
        ':token': skip.claimToken,
        ':ok': TRIGGER_CODE.success,
        ':zero': 0,
        ...(takeOver
          ? { ':now': skip.nowMs, ':previous': takeOver.previousToken, ':stale': takeOver.staleBeforeMs }
          : { ':fail': TRIGGER_CODE.fail }),
      },
    });
  }

  async takeCatchUp(
    jobId: number,
    mark: { missedTime: number; nowMs: number; fireKey: string },
  ): Promise<boolean> {
    try {
      await this.table.doc.send(
        new UpdateCommand({
          TableName: this.table.controlTable,
          Key: { pk: catchUpKey(jobId) },
          UpdateExpression: 'SET #at = :now, fireKey = :fire, expiresAt = :expires',
          // No catch-up since the fire was missed, or this fire's own (taken over after a crash).
          ConditionExpression: 'attribute_not_exists(#at) OR #at < :missed OR fireKey = :fire',
          ExpressionAttributeNames: { '#at': 'at' },
          ExpressionAttributeValues: {
            ':now': mark.nowMs,
            ':fire': mark.fireKey,
            ':missed': mark.missedTime,
            // Kept past any redelivery of a fire it stands for (ring messages live 4 days).
            ':expires': this.table.expiresAt(mark.nowMs),
          },
        }),
      );
      return true;
    } catch (err) {
      if (isConditionFailed(err)) return false;
      throw err;
    }
  }

  async recordRefusal(logId: number, claimToken: string, refusal: TriggerRefusal): Promise<boolean> {
    return this.table.conditionalUpdate({
      Key: runKey(logId),
      UpdateExpression:
        'SET executorAddress = :address, triggerCode = :code, triggerMsg = :msg, dispatchedAt = :at, ' +
        'outcomeBucket = :pending, outcomeDueAt = :due',
      ConditionExpression: 'claimToken = :token AND triggerCode = :ok AND handleCode = :zero',
      ExpressionAttributeValues: {
        ':address': refusal.executorAddress,
        ':code': refusal.triggerCode,
        ':msg': truncateMessage(refusal.triggerMsg),
        ':at': refusal.dispatchedAt,
        ':pending': OUTCOME_PENDING_BUCKET,
        ':due': refusal.dispatchedAt + OUTCOME_GRACE_MS,
        ':token': claimToken,
        ':ok': TRIGGER_CODE.success,
        ':zero': 0,
      },
    });
  }
}
