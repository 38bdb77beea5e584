import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { Logger } from '@tickring/core/common';
import { ValidationError } from '@tickring/core/common';
import type { Page } from '@tickring/core/jobs';
import {
  type CompleteOptions,
  type CompleteOutcome,
  type CreateFireResult,
  type DispatchEntry,
  firstPlannedLogId,
  type HandleResult,
  jobIdOfLogId,
  LOG_ID_JOB_FACTOR,
  OUTCOME_GRACE_MS,
  type Run,
  type RunQuery,
  type RunStore,
  runStatus,
  type StoredRun,
  TRIGGER_CODE,
  type TriggerRefusal,
  truncateMessage,
  UNPLANNED_LOG_ID_OFFSET,
  unplannedLogId,
  type WatchedRun,
} from '@tickring/core/runs';
import { createFunctionLogger } from '../observability/logger.js';
import { RUNS_OUTCOME_PENDING_INDEX } from '../topology/tables.js';
import { batchGetAll, decodeCursor, encodeCursor, type Item, isConditionFailed } from './util.js';

/**
 * The runs table holds these items, none of which writes an index entry in the common case:
 * - runs: `pk` = `J#{jobId}`, `sk` = logId (which carries the jobId, see `jobIdOfLogId`);
 * - dispatch pages: `pk` = `P#{hour}`, `sk` = claim time (ms × 1000 + salt): the runs one dispatcher
 *   record sent under one claim token, written once after sending. They prove a run was sent, list
 *   an app's and all runs by time, and feed the lost-run watch;
 * - the hour index: `pk` = `HOURS`, `sk` = an hour's start (epoch ms), for each hour that has dispatch
 *   pages: the app and all-runs lists read only those hours, not every hour of the retention. Each
 *   store instance writes an hour once, beside the first page it writes in it (best-effort);
 * - watch pages: `pk` = `W#{hour}`, `sk` = when to look again: runs still unfinished when looked at;
 * - the watch cursor: `pk` = `WATCH`, `sk` = 0: how far the lost-run watch has read, and from which
 *   hour on the hour index is complete (`hoursIndexedFrom`, see `indexedFromOf`).
 * Only a finished run with pending consequences writes an index entry (the sparse outcome index).
 */
const OUTCOME_PENDING_BUCKET = 'PENDING';
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const SALT = 1000;
/** Query rounds one `list` makes before it answers with a cursor. */
const MAX_LIST_ROUNDS = 25;
/** Run keys read per query round of a job's partition. */
const JOB_ROUND_SIZE = 50;
/** Dispatch pages read per query round of an hour. */
const PAGE_ROUND_SIZE = 10;
/** An unfinished run looked at is looked at again this much later (or at its deadline, if sooner). */
export const WATCH_AGAIN_MS = 60_000;
/** Most chunks (of about `limit` entries) one `findUnfinished` reads before leaving the rest to the next sweep. */
const MAX_WATCH_CHUNKS = 200;
/** Without a cursor (first sweep), the watch starts this far back. */
const WATCH_START_MS = HOUR_MS;
const WATCH_CURSOR_KEY = { pk: 'WATCH', sk: 0 } as const;
/** The partition of the hour index: one item per hour with dispatch pages, keyed by the hour's start. */
const HOURS_PK = 'HOURS';
/**
 * On a table a version without the hour index wrote, the index is complete only from this long after
 * the first sweep that keeps it (writers of the old version may still be finishing when it runs).
 */
const LEGACY_INDEX_MARGIN_MS = 2 * HOUR_MS;
/** Hours an instance remembers having put in the index (the recent ones: claims are made now). */
const MAX_REMEMBERED_HOURS = 48;

export interface DynamoRunStoreOptions {
  readonly doc: DynamoDBDocumentClient;
  readonly runsTable: string;
  /** Holds the fire records, each job's counter of unplanned runs and its catch-up mark. */
  readonly controlTable: string;
  /** Runs, pages and fire records expire (DynamoDB TTL) this many days after their trigger. */
  readonly retentionDays: number;
  /** A number in [0, 1): the salt of page keys. */
  readonly random?: () => number;
  /** Where a failed write of the hour index is reported (it does not fail the dispatch record). */
  readonly logger?: Logger;
}

/** Internal attributes kept beside a Run's fields. */
interface RunItem extends Run {
  readonly pk: string;
  readonly sk: number;
  readonly claimToken: string;
  readonly claimAt: number;
  readonly expiresAt: number;
  /** Set (to `PENDING`) while a finished run's consequences are not done: the sparse outcome index. */
  readonly outcomeBucket?: string;
  readonly outcomeDueAt?: number;
}

interface PageKey {
  readonly pk: string;
  readonly sk: number;
}

export class DynamoRunStore implements RunStore {
  private readonly random: () => number;
  private readonly logger: Logger;
  /** The hours this instance put in the hour index, or is putting: one write per instance and hour. */
  private readonly indexedHours = new Map<number, Promise<boolean>>();
  /** Hours whose index write failed: written again with the next dispatch record, of any hour. */
  private readonly unindexedHours = new Set<number>();

  constructor(private readonly options: DynamoRunStoreOptions) {
    this.random = options.random ?? Math.random;
    this.logger = options.logger ?? createFunctionLogger('run-store');
  }

  async allocateLogIds(jobId: number, count: number): Promise<number[]> {
    if (count <= 0) return [];
    const result = await this.options.doc.send(
      new UpdateCommand({
        TableName: this.options.controlTable,
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
    const sk = nowMs * SALT + Math.floor(this.random() * SALT);
    return `${hourOf(nowMs)}/${sk}`;
  }

  async createFire(dedupKey: string, runs: readonly Run[], claimToken: string): Promise<CreateFireResult> {
    const { doc, runsTable, controlTable } = this.options;
    const expiresAt = this.expiresAt(runs[0]?.triggerTime ?? Date.now());
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
                Item: this.toItem(run, claimToken),
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
      await this.options.doc.send(
        new PutCommand({
          TableName: this.options.runsTable,
          Item: this.toItem(run, claimToken),
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return { created: true };
    } catch (err) {
      if (!isConditionFailed(err)) throw err;
    }
    const { Item: existing } = await this.options.doc.send(
      new GetCommand({
        TableName: this.options.runsTable,
        Key: runKey(run.logId),
        ProjectionExpression: 'claimToken',
        ConsistentRead: true,
      }),
    );
    return existing?.claimToken === claimToken ? { created: true } : { created: false, logIds: [run.logId] };
  }

  async recordDispatch(claimToken: string, entries: readonly DispatchEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const key = pageKeyOf(claimToken);
    // The hour goes in the index beside the page (never failing it), so the lists read this hour.
    await Promise.all([this.appendToPage(key, entries, Math.floor(key.sk / SALT)), this.indexHour(key)]);
  }

  /**
   * Puts the hour of a page in the hour index, unless this instance did already (one write per
   * instance and hour), with any hour whose write failed before. Never rejects: a failure is logged,
   * and the hour written again with the instance's next record; until then the app and all-runs
   * lists miss the hour's pages unless another instance wrote it (its jobs still list its runs).
   */
  private async indexHour(page: PageKey): Promise<void> {
    const hour = Date.parse(`${page.pk.slice(2)}:00:00Z`);
    if (this.unindexedHours.size === 0 && this.indexedHours.has(hour)) return;
    await Promise.all([hour, ...this.unindexedHours].map((h) => this.putIndexedHour(h)));
  }

  private putIndexedHour(hourStart: number): Promise<boolean> {
    const known = this.indexedHours.get(hourStart);
    if (known) return known;
    const written = this.options.doc
      .send(
        new PutCommand({
          TableName: this.options.runsTable,
          // Kept as long as the pages of the hour: theirs expire after the hour's claims.
          Item: { pk: HOURS_PK, sk: hourStart, expiresAt: this.expiresAt(hourStart + HOUR_MS) },
        }),
      )
      .then(
        () => {
          this.unindexedHours.delete(hourStart);
          return true;
        },
        (err: unknown) => {
          this.indexedHours.delete(hourStart);
          this.unindexedHours.add(hourStart);
          // Retried hours are the few of a passing fault, not every hour of a lasting one.
          for (const old of [...this.unindexedHours].sort((a, b) => a - b)) {
            if (this.unindexedHours.size <= MAX_REMEMBERED_HOURS) break;
            this.unindexedHours.delete(old);
          }
          this.logger.warn('hour index write failed: the runs lists miss the hour until it is written', {
            hour: hourOf(hourStart),
            error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
          });
          return false;
        },
      );
    this.indexedHours.set(hourStart, written);
    // Claims are made now: the hours remembered are the last few (a Map keeps insertion order).
    for (const old of this.indexedHours.keys()) {
      if (this.indexedHours.size <= MAX_REMEMBERED_HOURS) break;
      this.indexedHours.delete(old);
    }
    return written;
  }

  async dispatchedUnder(claimToken: string): Promise<ReadonlySet<number>> {
    const { Item: page } = await this.options.doc.send(
      new GetCommand({
        TableName: this.options.runsTable,
        Key: pageKeyOf(claimToken),
        ProjectionExpression: 'logIds',
        ConsistentRead: true,
      }),
    );
    return new Set(((page?.logIds as number[] | undefined) ?? []).map(Number));
  }

  async get(logId: number): Promise<Run | undefined> {
    if (!Number.isSafeInteger(logId) || logId <= 0) return undefined;
    const { Item: item } = await this.options.doc.send(
      new GetCommand({ TableName: this.options.runsTable, Key: runKey(logId), ConsistentRead: true }),
    );
    return item ? fromItem(item) : undefined;
  }

  async getMany(logIds: readonly number[]): Promise<StoredRun[]> {
    const items = await this.readRuns(logIds);
    return items.map((item) => ({
      ...fromItem(item),
      claimToken: String(item.claimToken ?? ''),
      claimAt: Number(item.claimAt ?? 0),
    }));
  }

  async reclaim(
    logId: number,
    claim: {
      previousToken: string;
      claimToken: string;
      nowMs: number;
      staleBeforeMs: number;
      triggerMsg?: string;
    },
  ): Promise<boolean> {
    const msg = claim.triggerMsg === undefined ? {} : { ':msg': truncateMessage(claim.triggerMsg) };
    return this.conditionalUpdate({
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
    const result = await this.options.doc.send(
      new QueryCommand({
        TableName: this.options.runsTable,
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

  async skipClaimed(
    logId: number,
    skip: {
      claimToken: string;
      triggerMsg: string;
      nowMs: number;
      takeOver?: { previousToken: string; staleBeforeMs: number };
    },
  ): Promise<boolean> {
    const { takeOver } = skip;
    return this.conditionalUpdate({
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
      await this.options.doc.send(
        new UpdateCommand({
          TableName: this.options.controlTable,
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
            ':expires': this.expiresAt(mark.nowMs),
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
    return this.conditionalUpdate({
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

  async complete(
    logId: number,
    result: HandleResult,
    options: CompleteOptions = {},
  ): Promise<CompleteOutcome> {
    const mark = options.markOutcomePending ?? true;
    try {
      const updated = await this.options.doc.send(
        new UpdateCommand({
          TableName: this.options.runsTable,
          Key: runKey(logId),
          UpdateExpression: `SET handleCode = :code, handleMsg = :msg, handleTime = :at${
            mark ? ', outcomeBucket = :pending, outcomeDueAt = :due' : ''
          }`,
          // `takesResult`: no result yet, and not recorded as skipped (the skip was its end).
          ConditionExpression: 'attribute_exists(pk) AND handleCode = :zero AND triggerCode <> :skipped',
          ExpressionAttributeValues: {
            ':code': result.handleCode,
            ':msg': truncateMessage(result.handleMsg),
            ':at': result.handleTime,
            ':zero': 0,
            ':skipped': TRIGGER_CODE.skipped,
            ...(mark
              ? { ':pending': OUTCOME_PENDING_BUCKET, ':due': result.handleTime + OUTCOME_GRACE_MS }
              : {}),
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return { kind: 'completed', run: fromItem(updated.Attributes ?? {}) };
    } catch (err) {
      if (!isConditionFailed(err)) throw err;
      const run = await this.get(logId);
      return run ? { kind: 'already-finished', run } : { kind: 'unknown' };
    }
  }

  async clearOutcomePending(logId: number): Promise<void> {
    await this.conditionalUpdate({
      Key: runKey(logId),
      UpdateExpression: 'REMOVE outcomeBucket, outcomeDueAt',
      ConditionExpression: 'attribute_exists(pk)',
    });
  }

  async findOutcomePending(nowMs: number, limit: number): Promise<Run[]> {
    const result = await this.options.doc.send(
      new QueryCommand({
        TableName: this.options.runsTable,
        IndexName: RUNS_OUTCOME_PENDING_INDEX,
        KeyConditionExpression: 'outcomeBucket = :bucket AND outcomeDueAt < :now',
        ExpressionAttributeValues: { ':bucket': OUTCOME_PENDING_BUCKET, ':now': nowMs },
        Limit: limit,
      }),
    );
    const items = await this.readRuns((result.Items ?? []).map((i) => Number(i.sk)));
    // The index lags the table: keep only runs still marked.
    return items.filter((item) => item.outcomeBucket === OUTCOME_PENDING_BUCKET).map(fromItem);
  }

  async setAlarmStatus(logId: number, alarmStatus: number): Promise<void> {
    await this.conditionalUpdate({
      Key: runKey(logId),
      UpdateExpression: 'SET alarmStatus = :status',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':status': alarmStatus },
    });
  }

  async list(query: RunQuery): Promise<Page<Run>> {
    const to = query.to ?? Date.now() + DAY_MS;
    const from = query.from ?? to - (this.options.retentionDays + 1) * DAY_MS;
    if (from > to) throw new ValidationError('from must not be after to', 'from');
    const filter = (run: Run) =>
      run.triggerTime >= from &&
      run.triggerTime <= to &&
      (!query.status || runStatus(run) === query.status) &&
      (query.appName === undefined || run.appName === query.appName);
    return query.jobId !== undefined
      ? this.listJob(query.jobId, { from, to, limit: query.limit, cursor: query.cursor, filter })
      : this.listPages({
          from,
          to,
          limit: query.limit,
          cursor: query.cursor,
          filter,
          appName: query.appName,
        });
  }

  async findUnfinished(
    nowMs: number,
    { limit, settleMs }: { limit: number; settleMs: number },
  ): Promise<WatchedRun[]> {
    const { Item: cursor } = await this.options.doc.send(
      new GetCommand({ TableName: this.options.runsTable, Key: WATCH_CURSOR_KEY, ConsistentRead: true }),
    );
    let position = { dispatched: cursor?.dispatchedThrough, watched: cursor?.watchedThrough };
    const hoursIndexedFrom = indexedFromOf(cursor, nowMs);
    const unfinished = new Map<number, WatchedRun>();
    // Chunks of about `limit` entries, the cursor saved after each, until caught up or `limit` runs found.
    for (let chunk = 0; chunk < MAX_WATCH_CHUNKS && unfinished.size < limit; chunk++) {
      const dispatched = await this.readPagesSince('P', position.dispatched, nowMs - settleMs, limit);
      const watched = await this.readPagesSince('W', position.watched, nowMs, limit);
      await this.watch([...dispatched.entries, ...watched.entries], nowMs, unfinished);
      position = { dispatched: dispatched.through, watched: watched.through };
      await this.options.doc.send(
        new PutCommand({
          TableName: this.options.runsTable,
          Item: {
            ...WATCH_CURSOR_KEY,
            dispatchedThrough: position.dispatched,
            watchedThrough: position.watched,
            hoursIndexedFrom,
          },
        }),
      );
      if (dispatched.caughtUp && watched.caughtUp) break;
    }
    return [...unfinished.values()];
  }

  /**
   * Looks at the runs of some watch entries: finished ones are dropped, unfinished ones added to
   * `unfinished` (with whether their deadline has passed) and filed to be looked at again a minute
   * on, or at their deadline if that is sooner. Every run is looked at, so the bulk read takes only
   * what tells a finished run, eventually consistent (half the cost); the few unfinished ones (runs
   * still going after the settle time) are then read whole and strongly.
   */
  private async watch(
    entries: readonly (DispatchEntry & { claimToken?: string })[],
    nowMs: number,
    unfinished: Map<number, WatchedRun>,
  ): Promise<void> {
    const states = new Map(
      (
        await this.readRuns(
          entries.map((e) => e.logId),
          { consistent: false, attributes: ['pk', 'sk', 'triggerCode', 'handleCode', 'claimToken'] },
        )
      ).map((item) => [Number(item.sk), item]),
    );
    const isUnfinished = (item: Item | undefined): item is Item =>
      item !== undefined && item.triggerCode === TRIGGER_CODE.success && item.handleCode === 0;
    const again: (DispatchEntry & { due: number })[] = [];
    const deadlines = new Map<number, number>();
    for (const entry of entries) {
      const state = states.get(entry.logId);
      if (!isUnfinished(state)) continue;
      // A run claimed again under another token is watched from that claim's page.
      if (entry.claimToken !== undefined && state.claimToken !== entry.claimToken) continue;
      // A record written twice (a retried write) lists its runs twice: look at each run once.
      if (deadlines.has(entry.logId)) continue;
      deadlines.set(entry.logId, entry.deadline);
      const next = nowMs + WATCH_AGAIN_MS;
      again.push({ ...entry, due: entry.deadline > nowMs ? Math.min(entry.deadline, next) : next });
    }
    for (const item of await this.readRuns([...deadlines.keys()])) {
      const logId = Number(item.sk);
      if (!isUnfinished(item) || unfinished.has(logId)) continue;
      unfinished.set(logId, { run: fromItem(item), pastDeadline: (deadlines.get(logId) ?? 0) <= nowMs });
    }
    // Watch again before moving the cursor: a sweep that dies in between looks at runs twice, never not at all.
    const byMinute = new Map<number, DispatchEntry[]>();
    for (const entry of again) {
      const minute = Math.ceil(entry.due / 60_000) * 60_000;
      byMinute.set(minute, [...(byMinute.get(minute) ?? []), entry]);
    }
    await Promise.all(
      [...byMinute].map(([at, group]) =>
        this.appendToPage(
          { pk: `W#${hourOf(at)}`, sk: at * SALT + Math.floor(this.random() * SALT) },
          group,
          nowMs,
        ),
      ),
    );
  }

  /**
   * The entries of the pages of one kind with keys after `after` up to `untilMs`, oldest first, in
   * whole pages until about `limit` entries; `through` is the key to continue after.
   */
  private async readPagesSince(
    kind: 'P' | 'W',
    after: unknown,
    untilMs: number,
    limit: number,
  ): Promise<{ entries: (DispatchEntry & { claimToken?: string })[]; through: number; caughtUp: boolean }> {
    const until = untilMs * SALT + SALT - 1;
    let through = typeof after === 'number' ? after : (untilMs - WATCH_START_MS) * SALT;
    const entries: (DispatchEntry & { claimToken?: string })[] = [];
    // A sweep no later than the last one (clock skew, overlapping sweeps) has nothing new to read.
    if (through >= until) return { entries, through, caughtUp: true };
    for (
      let hourStart = hourStartOf(Math.floor(through / SALT));
      hourStart <= untilMs && entries.length < limit;
      hourStart += HOUR_MS
    ) {
      const hour = hourOf(hourStart);
      // One key condition per hour: `through` moves as pages are read, but a continued query
      // (ExclusiveStartKey) must keep the condition its start key came from.
      const after = through;
      let start: Item | undefined;
      do {
        const result = await this.options.doc.send(
          new QueryCommand({
            TableName: this.options.runsTable,
            KeyConditionExpression: 'pk = :pk AND sk BETWEEN :after AND :until',
            ExpressionAttributeValues: { ':pk': `${kind}#${hour}`, ':after': after + 1, ':until': until },
            ExclusiveStartKey: start,
            Limit: PAGE_ROUND_SIZE,
          }),
        );
        for (const page of result.Items ?? []) {
          const token = kind === 'P' ? `${hour}/${page.sk}` : undefined;
          entries.push(...pageEntries(page).map((e) => ({ ...e, ...(token ? { claimToken: token } : {}) })));
          through = Number(page.sk);
          if (entries.length >= limit) return { entries, through, caughtUp: false };
        }
        start = result.LastEvaluatedKey;
      } while (start);
      // The whole hour (up to `until`) is read.
      through = Math.min(until, (hourStart + HOUR_MS) * SALT - 1);
    }
    return { entries, through, caughtUp: through >= until };
  }

  /**
   * A job's runs, newest first: its planned runs (in schedule order) and its unplanned ones (in the
   * order they were made) are two ranges of its partition, merged by trigger time. The cursor holds
   * each range's position.
   */
  private async listJob(
    jobId: number,
    q: { from: number; to: number; limit: number; cursor?: string; filter: (run: Run) => boolean },
  ): Promise<Page<Run>> {
    const base = firstPlannedLogId(jobId);
    const position = decodeJobCursor(q.cursor);
    const streams = [
      new RangeStream(this, jobId, base, base + UNPLANNED_LOG_ID_OFFSET - 1, position?.p),
      new RangeStream(this, jobId, base + UNPLANNED_LOG_ID_OFFSET, base + LOG_ID_JOB_FACTOR - 1, position?.u),
    ] as const;
    const items: Run[] = [];
    let rounds = 0;
    while (items.length < q.limit && rounds < MAX_LIST_ROUNDS) {
      for (const stream of streams) if (stream.needsRead()) rounds += await stream.read();
      const heads = streams.filter((s) => s.head() !== undefined);
      if (heads.length === 0) break;
      const newest = heads.reduce((a, b) =>
        (b.head()?.triggerTime ?? 0) > (a.head()?.triggerTime ?? 0) ? b : a,
      );
      const run = newest.take();
      // Each range is in time order: a run older than `from` ends it.
      if (run.triggerTime < q.from) newest.end();
      else if (q.filter(run)) items.push(run);
    }
    if (streams.every((s) => s.done())) return { items };
    return { items, nextCursor: encodeCursor({ p: streams[0].position(), u: streams[1].position() }) };
  }

  /** Reads up to `limit` runs of a job's partition in `[low, high]`, newest logId first (for RangeStream). */
  async queryRange(jobId: number, low: number, high: number, limit: number) {
    const result = await this.options.doc.send(
      new QueryCommand({
        TableName: this.options.runsTable,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :low AND :high',
        ExpressionAttributeValues: { ':pk': `J#${jobId}`, ':low': low, ':high': high },
        ScanIndexForward: false,
        ConsistentRead: true,
        Limit: limit,
      }),
    );
    return { items: (result.Items ?? []).map(fromItem), more: result.LastEvaluatedKey !== undefined };
  }

  /**
   * An app's or all runs, newest first, from the dispatch pages hour by hour back from `to`; only
   * the page a run was last claimed under lists it. Only the hours in the hour index are read (and,
   * on a table written before the index, every hour before where it starts: see `HourWalk`). The
   * cursor holds the hour, the page and how many of its entries were looked at.
   */
  private async listPages(q: {
    from: number;
    to: number;
    limit: number;
    cursor?: string;
    appName?: string;
    filter: (run: Run) => boolean;
  }): Promise<Page<Run>> {
    // A page's key is its claim time, just before its runs' trigger times.
    const lowest = (q.from - 60_000) * SALT;
    const position = decodePageCursor(q.cursor);
    // Records are keyed by their claim time, never in the future: start from now at the latest.
    const top = Math.min(q.to, Date.now() + 60_000);
    const cursorHour = position ? Date.parse(`${position.h}:00:00Z`) : undefined;
    const walk = new HourWalk(
      this,
      hourStartOf(q.from - 60_000),
      cursorHour ?? hourStartOf(top),
      await this.hoursIndexedFrom(),
    );
    /** The key below which an hour's pages are read: the cursor's in its hour, else the hour's top. */
    const topOf = (hourStart: number) => Math.min(top * SALT + SALT, (hourStart + HOUR_MS) * SALT);
    let hourStart = await walk.next();
    if (hourStart === undefined) return { items: [] };
    const atCursor = position !== undefined && hourStart === cursorHour;
    let below = atCursor ? position.k : topOf(hourStart);
    let skip = atCursor ? position.i : 0;
    const items: Run[] = [];
    for (let rounds = 0; rounds + walk.queries < MAX_LIST_ROUNDS; rounds++) {
      const hour = hourOf(hourStart);
      const result = await this.options.doc.send(
        new QueryCommand({
          TableName: this.options.runsTable,
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :low AND :high',
          ExpressionAttributeValues: { ':pk': `P#${hour}`, ':low': lowest, ':high': below - 1 },
          ScanIndexForward: false,
          Limit: PAGE_ROUND_SIZE,
        }),
      );
      for (const page of result.Items ?? []) {
        const token = `${hour}/${page.sk}`;
        const entries = pageEntries(page).reverse();
        // A record written twice (a retried write) lists its runs twice: list each once.
        const first = new Map<number, number>();
        entries.forEach((entry, index) => {
          if (!first.has(entry.logId)) first.set(entry.logId, index);
        });
        const wanted = entries
          .map((entry, index) => ({ entry, index }))
          .filter(
            ({ entry, index }) =>
              index >= skip &&
              first.get(entry.logId) === index &&
              (!q.appName || entry.appName === q.appName),
          );
        const stored = new Map(
          (await this.readRuns(wanted.map(({ entry }) => entry.logId))).map((item) => [
            Number(item.sk),
            item,
          ]),
        );
        for (const { entry, index } of wanted) {
          const item = stored.get(entry.logId);
          const run = item && item.claimToken === token ? fromItem(item) : undefined;
          if (run && q.filter(run)) items.push(run);
          if (items.length >= q.limit) {
            const rest = index + 1 < entries.length;
            return {
              items,
              nextCursor: encodePageCursor(
                rest
                  ? { h: hour, k: Number(page.sk) + 1, i: index + 1 }
                  : { h: hour, k: Number(page.sk), i: 0 },
              ),
            };
          }
        }
        below = Number(page.sk);
        skip = 0;
      }
      if (!result.LastEvaluatedKey) {
        const next = await walk.next();
        if (next === undefined) return { items };
        hourStart = next;
        below = topOf(hourStart);
        skip = 0;
      }
    }
    return { items, nextCursor: encodePageCursor({ h: hourOf(hourStart), k: below, i: skip }) };
  }

  /**
   * From which hour on the hour index holds every hour with dispatch pages, as the watch cursor
   * keeps it (see `indexedFromOf`). Without a cursor, 0: a new table, which no version without the
   * index swept. With a cursor such a version wrote and no sweep of this one marked yet, infinite:
   * every hour is read, as before the index.
   */
  private async hoursIndexedFrom(): Promise<number> {
    const { Item: cursor } = await this.options.doc.send(
      new GetCommand({
        TableName: this.options.runsTable,
        Key: WATCH_CURSOR_KEY,
        ProjectionExpression: 'pk, hoursIndexedFrom',
      }),
    );
    if (cursor === undefined) return 0;
    return typeof cursor.hoursIndexedFrom === 'number' ? cursor.hoursIndexedFrom : Number.POSITIVE_INFINITY;
  }

  /** Reads up to `limit` hours of the hour index in `[low, high]`, newest first (for HourWalk). */
  async queryHours(low: number, high: number, limit: number) {
    const result = await this.options.doc.send(
      new QueryCommand({
        TableName: this.options.runsTable,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :low AND :high',
        ExpressionAttributeValues: { ':pk': HOURS_PK, ':low': low, ':high': high },
        ProjectionExpression: 'sk',
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    return {
      hours: (result.Items ?? []).map((item) => Number(item.sk)),
      more: result.LastEvaluatedKey !== undefined,
    };
  }

  /** Appends entries to a page (created if new): two writers that drew the same key share the page. */
  private async appendToPage(key: PageKey, entries: readonly DispatchEntry[], atMs: number): Promise<void> {
    await this.options.doc.send(
      new UpdateCommand({
        TableName: this.options.runsTable,
        Key: key,
        UpdateExpression:
          'SET logIds = list_append(if_not_exists(logIds, :none), :logIds), ' +
          'apps = list_append(if_not_exists(apps, :none), :apps), ' +
          'deadlines = list_append(if_not_exists(deadlines, :none), :deadlines), expiresAt = :expires',
        ExpressionAttributeValues: {
          ':none': [],
          ':logIds': entries.map((e) => e.logId),
          ':apps': entries.map((e) => e.appName),
          ':deadlines': entries.map((e) => e.deadline),
          ':expires': this.expiresAt(atMs),
        },
      }),
    );
  }

  private readRuns(logIds: readonly number[], read?: Parameters<typeof batchGetAll>[3]): Promise<Item[]> {
    return batchGetAll(
      this.options.doc,
      this.options.runsTable,
      [...new Set(logIds)].filter((id) => Number.isSafeInteger(id) && id > 0).map(runKey),
      read,
    );
  }

  private async conditionalUpdate(
    update: Omit<ConstructorParameters<typeof UpdateCommand>[0], 'TableName'>,
  ): Promise<boolean> {
    try {
      await this.options.doc.send(new UpdateCommand({ TableName: this.options.runsTable, ...update }));
      return true;
    } catch (err) {
      if (isConditionFailed(err)) return false;
      throw err;
    }
  }

  private expiresAt(triggerTime: number): number {
    return Math.floor(triggerTime / 1000) + this.options.retentionDays * 86_400;
  }

  private toItem(run: Run, claimToken: string): RunItem {
    return {
      ...run,
      ...runKey(run.logId),
      claimToken,
      claimAt: run.triggerTime,
      expiresAt: this.expiresAt(run.triggerTime),
      // A run recorded as refused (no executor to send it to) is finished: its outcome is pending.
      ...(run.triggerCode === TRIGGER_CODE.fail
        ? { outcomeBucket: OUTCOME_PENDING_BUCKET, outcomeDueAt: run.dispatchedAt + OUTCOME_GRACE_MS }
        : {}),
    };
  }
}

/** One logId range of a job's partition, read newest first in rounds, one run at a time. */
class RangeStream {
  private buffer: Run[] = [];
  private more = true;
  private last: number | undefined;
  private ended = false;

  constructor(
    private readonly store: DynamoRunStore,
    private readonly jobId: number,
    private readonly low: number,
    private readonly high: number,
    cursor: number | null | undefined,
  ) {
    if (cursor === null) this.ended = true;
    else if (cursor !== undefined) this.last = cursor;
  }

  needsRead(): boolean {
    return !this.ended && this.buffer.length === 0 && this.more;
  }

  async read(): Promise<number> {
    const high = this.last === undefined ? this.high : this.last - 1;
    if (high < this.low) {
      this.more = false;
      return 0;
    }
    const page = await this.store.queryRange(this.jobId, this.low, high, JOB_ROUND_SIZE);
    this.buffer = page.items;
    this.more = page.more;
    return 1;
  }

  head(): Run | undefined {
    return this.ended ? undefined : this.buffer[0];
  }

  take(): Run {
    const run = this.buffer.shift() as Run;
    this.last = run.logId;
    return run;
  }

  end(): void {
    this.ended = true;
  }

  done(): boolean {
    return this.ended || (this.buffer.length === 0 && !this.more);
  }

  /** Where a next page continues: after the last run taken, or null when the range is done. */
  position(): number | null | undefined {
    return this.done() ? null : this.last;
  }
}

/**
 * The hours a list of dispatch pages reads, newest first, from `start` down to `low` (hour starts):
 * from `indexedFrom` on those in the hour index (read a round of hours at a time), below it every
 * hour (pages written before the index may be in any of them).
 */
class HourWalk {
  /** Index reads made: they count towards the list's rounds. */
  queries = 0;
  private buffer: number[] = [];
  /** The newest hour not read yet (from the index, or walked). */
  private nextHour: number;

  constructor(
    private readonly store: DynamoRunStore,
    private readonly low: number,
    start: number,
    private readonly indexedFrom: number,
  ) {
    this.nextHour = start;
  }

  async next(): Promise<number | undefined> {
    for (;;) {
      const buffered = this.buffer.shift();
      if (buffered !== undefined) return buffered;
      if (this.nextHour < this.low) return undefined;
      if (this.nextHour < this.indexedFrom) {
        const hour = this.nextHour;
        this.nextHour -= HOUR_MS;
        return hour;
      }
      const bottom = Math.max(this.low, this.indexedFrom);
      const { hours, more } = await this.store.queryHours(bottom, this.nextHour, MAX_LIST_ROUNDS);
      this.queries++;
      this.buffer = hours;
      const last = hours.at(-1);
      this.nextHour = more && last !== undefined ? last - HOUR_MS : bottom - HOUR_MS;
    }
  }
}

/**
 * From which hour on the hour index holds every hour with dispatch pages, for the watch cursor to
 * keep (see `findUnfinished`). Without a cursor, no sweep ran yet: no version without the index ran
 * on the table (its monitors sweep every minute from the start), so the index holds every hour. A
 * cursor without the mark was written by such a version: its pages may be in any hour until a
 * while after this sweep, the first that keeps the index (its writers may still be finishing).
 */
function indexedFromOf(cursor: Item | undefined, nowMs: number): number {
  if (cursor === undefined) return 0;
  if (typeof cursor.hoursIndexedFrom === 'number') return cursor.hoursIndexedFrom;
  return hourStartOf(nowMs) + LEGACY_INDEX_MARGIN_MS;
}

function runKey(logId: number): { pk: string; sk: number } {
  return { pk: `J#${jobIdOfLogId(logId)}`, sk: logId };
}

function fireKey(dedupKey: string): string {
  return `fire#${dedupKey}`;
}

/** The control-table item of a job's catch-up mark: when its last catch-up ran, for which fire. */
function catchUpKey(jobId: number): string {
  return `catchup#${jobId}`;
}

function hourOf(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 13);
}

function hourStartOf(epochMs: number): number {
  return epochMs - (epochMs % HOUR_MS);
}

function pageKeyOf(claimToken: string): PageKey {
  const match = /^(\d{4}-\d\d-\d\dT\d\d)\/(\d+)$/.exec(claimToken);
  if (!match) throw new ValidationError(`not a claim token: ${JSON.stringify(claimToken)}`, 'claimToken');
  return { pk: `P#${match[1]}`, sk: Number(match[2]) };
}

/** A page's entries, kept as parallel lists `logIds`, `apps`, `deadlines` (appended to, never rewritten). */
function pageEntries(page: Item): DispatchEntry[] {
  const logIds = (page.logIds as number[] | undefined) ?? [];
  const apps = (page.apps as string[] | undefined) ?? [];
  const deadlines = (page.deadlines as number[] | undefined) ?? [];
  return logIds.map((logId, i) => ({
    logId: Number(logId),
    appName: String(apps[i] ?? ''),
    deadline: Number(deadlines[i] ?? 0),
  }));
}

function fromItem(item: Item): Run {
  const {
    pk: _pk,
    sk: _sk,
    claimAt: _c,
    expiresAt: _e,
    outcomeBucket: _ob,
    outcomeDueAt: _od,
    claimToken: _ct,
    ...run
  } = item;
  return run as unknown as Run;
}

function decodeJobCursor(
  cursor: string | undefined,
): { p: number | null | undefined; u: number | null | undefined } | undefined {
  const decoded = decodeCursor(cursor);
  if (decoded === undefined) return undefined;
  const valid = (v: unknown) => v === undefined || v === null || Number.isSafeInteger(v);
  if (!('p' in decoded || 'u' in decoded) || !valid(decoded.p) || !valid(decoded.u)) {
    throw new ValidationError('cursor is not a cursor this API returned', 'cursor');
  }
  return { p: decoded.p as number | null | undefined, u: decoded.u as number | null | undefined };
}

function encodePageCursor(position: { h: string; k: number; i: number }): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

function decodePageCursor(cursor: string | undefined): { h: string; k: number; i: number } | undefined {
  const decoded = decodeCursor(cursor);
  if (decoded === undefined) return undefined;
  const { h, k, i } = decoded;
  if (
    typeof h !== 'string' ||
    !/^\d{4}-\d\d-\d\dT\d\d$/.test(h) ||
    !Number.isSafeInteger(k) ||
    !Number.isSafeInteger(i) ||
    (i as number) < 0
  ) {
    throw new ValidationError('cursor is not a cursor this API returned', 'cursor');
  }
  return { h, k: k as number, i: i as number };
}
