/** Runs recorded in a RunStore as the dispatcher records them (the contract suite seeds its runs so). */

import {
  firstPlannedLogId,
  type Run,
  type RunQuery,
  type RunStatus,
  type RunStore,
  TRIGGER_CODE,
} from '@tickring/core/runs';
import { expect } from 'vitest';
import { makeRun } from './outcome-fakes.js';

const EXECUTOR = 'http://127.0.0.1:9999/';

/** The fields a seeded run needs (the rest are a typical run's). */
export type RunSeedFields = Partial<Run> & Pick<Run, 'jobId' | 'appName' | 'triggerTime'>;
export interface RunSeedOptions {
  /** Brought there by its result (success or fail). */
  readonly status?: RunStatus;
  /** Recorded as sent under its token (the default), or claimed only (its dispatcher died before). */
  readonly record?: boolean;
  /** The claim token, by default one made at its trigger time. */
  readonly token?: string;
  /** The deadline its dispatch record gives it, by default 10 minutes after its trigger. */
  readonly deadline?: number;
}

/** A run as the dispatcher writes it when it claims a fire: routed to an executor, to be sent. */
export function sentRun(logId: number, fields: RunSeedFields): Run {
  return makeRun({
    logId,
    dedupKey: `seeded#${logId}`,
    scheduledTime: fields.triggerTime,
    dispatchedAt: fields.triggerTime,
    executorAddress: EXECUTOR,
    triggerCode: TRIGGER_CODE.success,
    ...fields,
  });
}

/**
 * A store with runs recorded as the dispatcher records them, through the port only: the contract
 * suite's, and an adapter's own tests'.
 */
export class RunSeeder {
  constructor(
    readonly store: RunStore,
    /** Another store on the same storage (another function instance). */
    readonly peer: () => RunStore,
  ) {}

  async stored(logId: number): Promise<Run> {
    const run = await this.store.get(logId);
    if (!run) throw new Error(`run ${logId} is not stored`);
    return run;
  }

  /** An unplanned run of `fields.jobId`: a new logId, its fire and the run in one transaction. */
  async seedRun(fields: RunSeedFields, options: RunSeedOptions = {}): Promise<{ run: Run; token: string }> {
    const [logId] = await this.store.allocateLogIds(fields.jobId, 1);
    if (logId === undefined) throw new Error('no logId');
    return this.seed(sentRun(logId, fields), options, (run, token) =>
      this.store.createFire(run.dedupKey, [run], token),
    );
  }

  /** The job's `n`-th planned run, claimed with its planned logId. */
  async seedPlanned(
    n: number,
    fields: RunSeedFields,
    options: RunSeedOptions = {},
  ): Promise<{ run: Run; token: string }> {
    const run = sentRun(firstPlannedLogId(fields.jobId) + n, { triggerType: 'CRON', ...fields });
    return this.seed(run, options, (r, token) => this.store.claim(r, token));
  }

  private async seed(
    run: Run,
    options: RunSeedOptions,
    write: (run: Run, token: string) => Promise<unknown>,
  ): Promise<{ run: Run; token: string }> {
    const token = options.token ?? this.store.newClaimToken(run.triggerTime);
    expect(await write(run, token)).toEqual({ created: true });
    if (options.record ?? true) {
      await this.store.recordDispatch(token, [
        { logId: run.logId, appName: run.appName, deadline: options.deadline ?? run.triggerTime + 600_000 },
      ]);
    }
    if (options.status === 'success' || options.status === 'fail') {
      const handleCode = options.status === 'success' ? 200 : 500;
      await this.store.complete(run.logId, { handleCode, handleMsg: '', handleTime: run.triggerTime + 1 });
    }
    return { run: await this.stored(run.logId), token };
  }

  /** Every page of `query`, following its cursors (at most `maxPages`). */
  async allPages(query: Omit<RunQuery, 'cursor'>, maxPages = 200) {
    const pages: Run[][] = [];
    let cursor: string | undefined;
    do {
      const page = await this.store.list({ ...query, cursor });
      pages.push(page.items);
      cursor = page.nextCursor;
    } while (cursor && pages.length < maxPages);
    return { pages, runs: pages.flat(), exhausted: cursor === undefined };
  }
}
