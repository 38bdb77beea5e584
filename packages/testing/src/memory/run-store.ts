/**
 * The RunStore in memory, with every behaviour of the port the contract suite pins
 * (contracts/run-store.ts), for the use-cases' unit tests. Maps stand for the tables: they are
 * public for tests to look at (and to set a state up directly); a few hooks inject failures.
 */

import { ValidationError } from '@tickring/core/common';
import type { Page } from '@tickring/core/jobs';
import {
  CLAIM_LEAD_MS,
  type ClaimedSkip,
  type ClaimTakeOver,
  type CompleteOptions,
  type CompleteOutcome,
  type CreateFireResult,
  completeMarks,
  type DispatchEntry,
  firstPlannedLogId,
  HANDLE_CODE,
  type HandleResult,
  jobIdOfLogId,
  LOG_ID_JOB_FACTOR,
  MAX_WATCH_CHUNKS,
  OUTCOME_GRACE_MS,
  outcomeDueOnClaim,
  type PlannedRunHead,
  type Run,
  type RunQuery,
  type RunStore,
  runExpiresAt,
  runStatus,
  type SkipRangeExtension,
  type StoredRun,
  sampledOutExpiresAt,
  skippedCountOf,
  skippedUntilOf,
  TRIGGER_CODE,
  type TriggerRefusal,
  truncateMessage,
  UNPLANNED_LOG_ID_OFFSET,
  unplannedLogId,
  WATCH_AGAIN_MS,
  WATCH_START_MS,
  type WatchedRun,
} from '@tickring/core/runs';

const MINUTE_MS = 60_000;

/** Where a dispatch record or a watch page sorts: by time, then by the order it was made. */
interface Key {
  readonly at: number;
  readonly seq: number;
}

/** Runs filed to be looked at again by the lost-run watch, at the minute `at`. */
interface WatchPage extends Key {
  readonly entries: readonly DispatchEntry[];
}

interface PagedEntry extends DispatchEntry {
  /** The record's claim token (a dispatch record's entry; a watch page's has none). */
  readonly claimToken?: string;
}

export interface MemoryRunStoreOptions {
  /** The wall clock, for the default time range of `list` (as the DynamoDB adapter reads it). */
  readonly now?: () => number;
  /** The deployment's run retention (TICKRING_LOG_RETENTION_DAYS), for the runs' expiry; default 30. */
  readonly retentionDays?: number;
}

export class MemoryRunStore implements RunStore {
  readonly fires = new Map<string, { readonly logIds: readonly number[]; readonly claimToken: string }>();
  /** The runs, with their claim. */
  readonly runs = new Map<number, StoredRun>();
  /**
   * When each run expires (epoch s), as the other stores' TTL field; modelled, never enforced:
   * nothing is deleted (getMany shows it).
   */
  readonly expiries = new Map<number, number>();
  /** Outcome-pending marks (a finished run's consequences not done yet): logId → due time. */
  readonly outcomePending = new Map<number, number>();
  /** What dispatchers recorded as sent, by claim token. */
  readonly dispatched = new Map<string, DispatchEntry[]>();
  /** Each job's catch-up mark, and every attempt to take one. */
  readonly catchUps = new Map<number, { at: number; fireKey: string }>();
  readonly catchUpAttempts: { jobId: number; missedTime: number; fireKey: string; won: boolean }[] = [];
  /** Fail the next N createFire (and claim) calls with this error (a lost transaction). */
  failCreateFire: { times: number; error: Error } | undefined;
  /** The next claim is stored but its answer is lost (the caller sees this error). */
  loseClaimAnswer: Error | undefined;
  /** How often the order check read a job's partition. */
  laterReads = 0;
  /** How often a job's latest planned run was read (the skip ranges' read). */
  latestReads = 0;

  private readonly now: () => number;
  private readonly retentionDays: number;
  /** Each job's count of unplanned logIds given out. */
  private readonly unplanned = new Map<number, number>();
  private tokens = 0;
  private readonly watchPages: WatchPage[] = [];
  /** How far the lost-run watch has read the dispatch records and the watch pages. */
  private watchCursor: { dispatched: Key; watched: Key } | undefined;

  constructor(options: MemoryRunStoreOptions = {}) {
    this.now = options.now ?? Date.now;
    this.retentionDays = options.retentionDays ?? 30;
  }

  async allocateLogIds(jobId: number, count: number): Promise<number[]> {
    const first = this.unplanned.get(jobId) ?? 0;
    if (count <= 0) return [];
    if (first + count > UNPLANNED_LOG_ID_OFFSET) {
      throw new Error(`job ${jobId} has used up its ${UNPLANNED_LOG_ID_OFFSET} unplanned logIds`);
    }
    this.unplanned.set(jobId, first + count);
    return Array.from({ length: count }, (_, i) => unplannedLogId(jobId, first + i));
  }

  newClaimToken(nowMs: number): string {
    return `claim-${nowMs}-${++this.tokens}`;
  }

  async createFire(dedupKey: string, runs: readonly Run[], claimToken: string): Promise<CreateFireResult> {
    this.failIfAsked();
    const existing = this.fires.get(dedupKey);
    if (existing) {
      return existing.claimToken === claimToken
        ? { created: true }
        : { created: false, logIds: existing.logIds };
    }
    // All or nothing, as a transaction: a run that exists cancels the fire and its other runs.
    const taken = runs.find((run) => this.runs.has(run.logId));
    if (taken) throw new Error(`fire ${dedupKey} not recorded: run ${taken.logId} exists`);
    this.fires.set(dedupKey, { logIds: runs.map((r) => r.logId), claimToken });
    for (const run of runs) this.put(run, claimToken);
    return { created: true };
  }

  async claim(run: Run, claimToken: string): Promise<CreateFireResult> {
    this.failIfAsked();
    const lost = this.loseClaimAnswer;
    this.loseClaimAnswer = undefined;
    if (lost && !this.runs.has(run.logId)) {
      this.put(run, claimToken);
      throw lost;
    }
    const existing = this.runs.get(run.logId);
    if (existing) {
      return existing.claimToken === claimToken ? { created: true } : { created: false, logIds: [run.logId] };
    }
    this.put(run, claimToken);
    return { created: true };
  }

  async recordDispatch(claimToken: string, entries: readonly DispatchEntry[]): Promise<void> {
    if (keyOfToken(claimToken) === undefined) {
      throw new ValidationError(`not a claim token: ${JSON.stringify(claimToken)}`, 'claimToken');
    }
    if (entries.length === 0) return;
    this.dispatched.set(claimToken, [
      ...(this.dispatched.get(claimToken) ?? []),
      ...entries.map((e) => ({ ...e })),
    ]);
  }

  async dispatchedUnder(claimToken: string): Promise<ReadonlySet<number>> {
    return new Set((this.dispatched.get(claimToken) ?? []).map((e) => e.logId));
  }

  async get(logId: number): Promise<Run | undefined> {
    const run = this.runs.get(logId);
    return run && plain(run);
  }

  async getMany(logIds: readonly number[]): Promise<StoredRun[]> {
    return [...new Set(logIds)].flatMap((id) => {
      const run = this.runs.get(id);
      return run
        ? [{ ...run, expiresAt: this.expiries.get(id) ?? runExpiresAt(run, this.retentionDays) }]
        : [];
    });
  }

  async reclaim(logId: number, claim: ClaimTakeOver): Promise<boolean> {
    const run = this.runs.get(logId);
    if (!run || !this.staleSentClaim(run, claim.previousToken, claim.staleBeforeMs)) return false;
    const triggerMsg = claim.triggerMsg === undefined ? run.triggerMsg : truncateMessage(claim.triggerMsg);
    this.runs.set(logId, { ...run, claimAt: claim.nowMs, claimToken: claim.claimToken, triggerMsg });
    return true;
  }

  async laterPlannedRun(logId: number): Promise<{ logId: number; scheduledTime: number } | undefined> {
    this.laterReads++;
    const end = firstPlannedLogId(jobIdOfLogId(logId)) + UNPLANNED_LOG_ID_OFFSET;
    const later = this.all()
      .filter((r) => r.logId > logId && r.logId < end)
      .sort((a, b) => a.logId - b.logId)[0];
    return later && { logId: later.logId, scheduledTime: later.scheduledTime };
  }

  async latestPlannedRun(jobId: number, atOrBelow?: number): Promise<PlannedRunHead | undefined> {
    this.latestReads++;
    const first = firstPlannedLogId(jobId);
    const top = Math.min(first + UNPLANNED_LOG_ID_OFFSET - 1, atOrBelow ?? Number.POSITIVE_INFINITY);
    const latest = this.all()
      .filter((r) => r.logId >= first && r.logId <= top)
      .sort((a, b) => b.logId - a.logId)[0];
    if (!latest) return undefined;
    const { logId, scheduledTime, triggerCode, skippedCount, skippedUntil } = latest;
    return {
      logId,
      scheduledTime,
      triggerCode,
      ...(skippedCount === undefined ? {} : { skippedCount }),
      ...(skippedUntil === undefined ? {} : { skippedUntil }),
    };
  }

  async extendSkipRange(logId: number, extension: SkipRangeExtension): Promise<boolean> {
    const run = this.runs.get(logId);
    if (run?.triggerCode !== TRIGGER_CODE.skipped || skippedUntilOf(run) !== extension.expectedUntil) {
      return false;
    }
    this.runs.set(logId, {
      ...run,
      skippedCount: skippedCountOf(run) + extension.addCount,
      skippedUntil: extension.until,
      ...(extension.triggerMsg === undefined ? {} : { triggerMsg: truncateMessage(extension.triggerMsg) }),
    });
    return true;
  }

  async skipClaimed(logId: number, skip: ClaimedSkip): Promise<boolean> {
    const run = this.runs.get(logId);
    if (!run) return false;
    const { takeOver } = skip;
    const claimed = takeOver
      ? this.staleSentClaim(run, takeOver.previousToken, takeOver.staleBeforeMs)
      : run.claimToken === skip.claimToken &&
        (run.triggerCode === TRIGGER_CODE.success || run.triggerCode === TRIGGER_CODE.fail) &&
        run.handleCode === 0;
    if (!claimed) return false;
    // A run refused at its claim (no executor) was marked outcome-pending: a skipped one has no outcome.
    this.outcomePending.delete(logId);
    this.runs.set(logId, {
      ...run,
      triggerCode: TRIGGER_CODE.skipped,
      triggerMsg: truncateMessage(skip.triggerMsg),
      executorAddress: '',
      dispatchedAt: 0,
      claimToken: skip.claimToken,
      claimAt: takeOver ? skip.nowMs : run.claimAt,
    });
    return true;
  }

  async takeCatchUp(
    jobId: number,
    mark: { missedTime: number; nowMs: number; fireKey: string },
  ): Promise<boolean> {
    const held = this.catchUps.get(jobId);
    const won = !held || held.at < mark.missedTime || held.fireKey === mark.fireKey;
    if (won) this.catchUps.set(jobId, { at: mark.nowMs, fireKey: mark.fireKey });
    this.catchUpAttempts.push({ jobId, missedTime: mark.missedTime, fireKey: mark.fireKey, won });
    return won;
  }

  async recordRefusal(logId: number, claimToken: string, refusal: TriggerRefusal): Promise<boolean> {
    const run = this.runs.get(logId);
    if (run?.claimToken !== claimToken || run.triggerCode !== TRIGGER_CODE.success || run.handleCode !== 0) {
      return false;
    }
    const { executorAddress, triggerCode, dispatchedAt } = refusal;
    const triggerMsg = truncateMessage(refusal.triggerMsg);
    this.runs.set(logId, { ...run, executorAddress, triggerCode, triggerMsg, dispatchedAt });
    this.outcomePending.set(logId, dispatchedAt + OUTCOME_GRACE_MS);
    return true;
  }

  async complete(
    logId: number,
    result: HandleResult,
    options: CompleteOptions = {},
  ): Promise<CompleteOutcome> {
    const run = this.runs.get(logId);
    if (!run) return { kind: 'unknown' };
    // The first result stands; a skip was its run's end.
    if (run.handleCode !== 0 || run.triggerCode === TRIGGER_CODE.skipped) {
      return { kind: 'already-finished', run: plain(run) };
    }
    const completed: StoredRun = {
      ...run,
      handleCode: result.handleCode,
      handleMsg: truncateMessage(result.handleMsg),
      handleTime: result.handleTime,
    };
    this.runs.set(logId, completed);
    const sampledOut = sampledOutExpiresAt(run, this.retentionDays);
    if (result.handleCode === HANDLE_CODE.success && sampledOut !== undefined)
      this.expiries.set(logId, sampledOut);
    if (completeMarks(options, run, result.handleCode))
      this.outcomePending.set(logId, result.handleTime + OUTCOME_GRACE_MS);
    return { kind: 'completed', run: plain(completed) };
  }

  async clearOutcomePending(logId: number): Promise<void> {
    this.outcomePending.delete(logId);
  }

  async findOutcomePending(nowMs: number, limit: number): Promise<Run[]> {
    return [...this.outcomePending]
      .filter(([logId, due]) => due < nowMs && this.runs.has(logId))
      .sort(([a, dueA], [b, dueB]) => dueA - dueB || a - b)
      .slice(0, limit)
      .flatMap(([logId]) => {
        const run = this.runs.get(logId);
        return run ? [plain(run)] : [];
      });
  }

  async setAlarmStatus(logId: number, alarmStatus: number): Promise<void> {
    const run = this.runs.get(logId);
    if (run) this.runs.set(logId, { ...run, alarmStatus });
  }

  async list(query: RunQuery): Promise<Page<Run>> {
    const to = query.to ?? this.now() + 86_400_000;
    const from = query.from ?? Number.NEGATIVE_INFINITY;
    if (from > to) throw new ValidationError('from must not be after to', 'from');
    const wanted = (run: Run) =>
      run.triggerTime >= from &&
      run.triggerTime <= to &&
      (!query.status || runStatus(run) === query.status) &&
      (query.appName === undefined || run.appName === query.appName);
    return query.jobId !== undefined
      ? this.listJob(query.jobId, query.limit, query.cursor, wanted)
      : this.listRecords({
          from,
          to,
          limit: query.limit,
          cursor: query.cursor,
          appName: query.appName,
          wanted,
        });
  }

  async findUnfinished(
    nowMs: number,
    { limit, settleMs }: { limit: number; settleMs: number },
  ): Promise<WatchedRun[]> {
    let position = this.watchCursor ?? {
      dispatched: { at: nowMs - settleMs - WATCH_START_MS, seq: Number.POSITIVE_INFINITY },
      watched: { at: nowMs - WATCH_START_MS, seq: Number.POSITIVE_INFINITY },
    };
    const unfinished = new Map<number, WatchedRun>();
    for (let chunk = 0; chunk < MAX_WATCH_CHUNKS && unfinished.size < limit; chunk++) {
      const dispatched = readSince(this.records(), position.dispatched, nowMs - settleMs, limit);
      const watched = readSince(this.watchPages, position.watched, nowMs, limit);
      this.watch([...dispatched.entries, ...watched.entries], nowMs, unfinished);
      position = { dispatched: dispatched.through, watched: watched.through };
      this.watchCursor = position;
      if (dispatched.caughtUp && watched.caughtUp) break;
    }
    return [...unfinished.values()];
  }

  /** Every run, with its claim. */
  all(): StoredRun[] {
    return [...this.runs.values()];
  }

  private failIfAsked(): void {
    if (this.failCreateFire && this.failCreateFire.times > 0) {
      this.failCreateFire.times--;
      throw this.failCreateFire.error;
    }
  }

  private put(run: Run, claimToken: string): void {
    this.runs.set(run.logId, { ...run, claimAt: run.triggerTime, claimToken });
    this.expiries.set(run.logId, runExpiresAt(run, this.retentionDays));
    const outcomeDue = outcomeDueOnClaim(run);
    if (outcomeDue !== undefined) this.outcomePending.set(run.logId, outcomeDue);
  }

  /** A claim under `previousToken`, older than `staleBeforeMs`, of a run recorded to be sent and without a result. */
  private staleSentClaim(run: StoredRun, previousToken: string, staleBeforeMs: number): boolean {
    return (
      run.claimToken === previousToken &&
      run.claimAt < staleBeforeMs &&
      run.triggerCode === TRIGGER_CODE.success &&
      run.handleCode === 0
    );
  }

  /** The dispatch records, oldest first. */
  private records(): (Key & { token: string; entries: readonly DispatchEntry[] })[] {
    return [...this.dispatched]
      .flatMap(([token, entries]) => {
        const key = keyOfToken(token);
        return key ? [{ ...key, token, entries }] : [];
      })
      .sort(compareKeys);
  }

  /**
   * Looks at the runs of some watch entries: finished ones are dropped, unfinished ones added to
   * `unfinished` and filed to be looked at again a minute on, or at their deadline if sooner.
   */
  private watch(entries: readonly PagedEntry[], nowMs: number, unfinished: Map<number, WatchedRun>): void {
    const deadlines = new Map<number, number>();
    const again: (DispatchEntry & { due: number })[] = [];
    for (const entry of entries) {
      const run = this.runs.get(entry.logId);
      if (!run || run.triggerCode !== TRIGGER_CODE.success || run.handleCode !== 0) continue;
      // A run claimed again under another token is watched from that claim's record.
      if (entry.claimToken !== undefined && run.claimToken !== entry.claimToken) continue;
      if (deadlines.has(entry.logId)) continue;
      deadlines.set(entry.logId, entry.deadline);
      const next = nowMs + WATCH_AGAIN_MS;
      const { logId, appName, deadline } = entry;
      again.push({ logId, appName, deadline, due: deadline > nowMs ? Math.min(deadline, next) : next });
      if (!unfinished.has(logId)) {
        unfinished.set(logId, { run: plain(run), pastDeadline: deadline <= nowMs });
      }
    }
    // One page per minute: a run is looked at again by the first sweep from its minute on.
    const byMinute = new Map<number, DispatchEntry[]>();
    for (const { due, ...entry } of again) {
      const minute = Math.ceil(due / MINUTE_MS) * MINUTE_MS;
      byMinute.set(minute, [...(byMinute.get(minute) ?? []), entry]);
    }
    for (const [at, group] of byMinute) this.watchPages.push({ at, seq: ++this.tokens, entries: group });
  }

  /**
   * A job's runs, newest first: its planned runs (in schedule order) and its unplanned ones (in the
   * order they were made), merged by trigger time. The cursor holds the last logId taken of each.
   */
  private listJob(
    jobId: number,
    limit: number,
    cursor: string | undefined,
    wanted: (run: Run) => boolean,
  ): Page<Run> {
    const position = decodeCursor(cursor, 'job');
    const base = firstPlannedLogId(jobId);
    const range = (low: number, high: number, below: number | undefined) =>
      this.all()
        .filter((r) => r.logId >= low && r.logId <= high && (below === undefined || r.logId < below))
        .sort((a, b) => b.logId - a.logId);
    const streams = [
      range(base, base + UNPLANNED_LOG_ID_OFFSET - 1, position?.p),
      range(base + UNPLANNED_LOG_ID_OFFSET, base + LOG_ID_JOB_FACTOR - 1, position?.u),
    ] as const;
    const taken: [number | undefined, number | undefined] = [position?.p, position?.u];
    const items: Run[] = [];
    for (;;) {
      const [planned, other] = streams;
      const head = planned[0] && (!other[0] || other[0].triggerTime <= planned[0].triggerTime) ? 0 : 1;
      const run = streams[head].shift();
      if (!run) return { items };
      if (!wanted(run)) {
        taken[head] = run.logId;
        continue;
      }
      if (items.length === limit) {
        return { items, nextCursor: encodeCursor('job', { p: taken[0], u: taken[1] }) };
      }
      taken[head] = run.logId;
      items.push(plain(run));
    }
  }

  /**
   * An app's or all runs, newest first, from the dispatch records: newest record first, a record's
   * newest entry first; only the record a run is claimed under lists it, once. The cursor holds the
   * record and the entry to go on from.
   */
  private listRecords(q: {
    from: number;
    to: number;
    limit: number;
    cursor?: string;
    appName?: string;
    wanted: (run: Run) => boolean;
  }): Page<Run> {
    const position = decodeCursor(q.cursor, 'records');
    const top = Math.min(q.to, this.now() + CLAIM_LEAD_MS);
    const records = this.records()
      .filter((r) => r.at >= q.from - CLAIM_LEAD_MS && r.at <= top)
      .filter((r) => !position || compareKeys(r, position) <= 0)
      .reverse();
    const items: Run[] = [];
    for (const record of records) {
      const entries = [...record.entries].reverse();
      const start = position && compareKeys(record, position) === 0 ? position.i : 0;
      for (let index = start; index < entries.length; index++) {
        const entry = entries[index] as DispatchEntry;
        // A record written twice (a retried write) lists its runs twice: list each once.
        if (entries.findIndex((e) => e.logId === entry.logId) !== index) continue;
        if (q.appName !== undefined && entry.appName !== q.appName) continue;
        const run = this.runs.get(entry.logId);
        if (!run || run.claimToken !== record.token || !q.wanted(run)) continue;
        if (items.length === q.limit) {
          return { items, nextCursor: encodeCursor('records', { at: record.at, seq: record.seq, i: index }) };
        }
        items.push(plain(run));
      }
    }
    return { items };
  }
}

/** The pages after `after` up to `untilMs`, oldest first, in whole pages until about `limit` entries. */
function readSince(
  pages: readonly (Key & { token?: string; entries: readonly DispatchEntry[] })[],
  after: Key,
  untilMs: number,
  limit: number,
): { entries: PagedEntry[]; through: Key; caughtUp: boolean } {
  const until = { at: untilMs, seq: Number.POSITIVE_INFINITY };
  const entries: PagedEntry[] = [];
  // A sweep no later than the last one has nothing new to read.
  if (compareKeys(after, until) >= 0) return { entries, through: after, caughtUp: true };
  const due = pages
    .filter((page) => compareKeys(page, after) > 0 && compareKeys(page, until) <= 0)
    .sort(compareKeys);
  for (const page of due) {
    const token = page.token;
    entries.push(
      ...page.entries.map((e) => ({ ...e, ...(token === undefined ? {} : { claimToken: token }) })),
    );
    if (entries.length >= limit) return { entries, through: { at: page.at, seq: page.seq }, caughtUp: false };
  }
  return { entries, through: until, caughtUp: true };
}

function compareKeys(a: Key, b: Key): number {
  return a.at - b.at || (a.seq === b.seq ? 0 : a.seq < b.seq ? -1 : 1);
}

/** The claim time and number of a token `newClaimToken` made, or undefined. */
function keyOfToken(claimToken: string): Key | undefined {
  const match = /^claim-(-?\d+)-(\d+)$/.exec(claimToken);
  return match ? { at: Number(match[1]), seq: Number(match[2]) } : undefined;
}

function plain(run: StoredRun): Run {
  const { claimToken: _token, claimAt: _at, ...rest } = run;
  return rest;
}

type CursorOf = {
  job: { p?: number; u?: number };
  records: { at: number; seq: number; i: number };
};

function encodeCursor<K extends keyof CursorOf>(kind: K, position: CursorOf[K]): string {
  return Buffer.from(JSON.stringify({ [kind]: position })).toString('base64url');
}

function decodeCursor<K extends keyof CursorOf>(
  cursor: string | undefined,
  kind: K,
): CursorOf[K] | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  let position: unknown;
  try {
    position = (JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown>)[
      kind
    ];
  } catch {
    position = undefined;
  }
  const fields = kind === 'job' ? ['p', 'u'] : ['at', 'seq', 'i'];
  const valid =
    typeof position === 'object' &&
    position !== null &&
    Object.entries(position).every(([name, value]) => fields.includes(name) && Number.isSafeInteger(value)) &&
    (kind === 'job' || fields.every((name) => name in position));
  if (!valid) throw new ValidationError('cursor is not a cursor this API returned', 'cursor');
  return position as CursorOf[K];
}
