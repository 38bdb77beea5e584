import type { ReturnT } from '@tickring/protocol';
import type { Job } from '../jobs/job.js';
import type { Run } from '../runs/run.js';
import type { FireMessage } from './trigger.js';

/** The link a fire carries to the run of another capability that waits for it (a workflow node's). */
export type FireLink = NonNullable<FireMessage['workflow']>;

/**
 * What another capability adds to the dispatch of the fires and jobs that are its own (the
 * workflows: a node's fire, a workflow's starter job). The dispatcher turns to it only for a fire
 * that carries a link (`FireMessage.workflow`) or a job that names its owner (`Job.workflowId`): a
 * plain fire never goes through it.
 */
export interface FireHook {
  /** A linked fire: what its owner says of it, asked beside the read of the fire's job. */
  linkedFire(message: FireMessage, link: FireLink): Promise<LinkedFire>;
  /** A job its owner `ownerId` runs itself: its runs go to the owner instead of an executor. */
  ownedJob(job: Job, ownerId: number): OwnedJob;
}

/** A fire that the run of another capability waits for. */
export interface LinkedFire {
  /** Why the fire is no longer wanted (its run stopped waiting for it), or undefined to run it. */
  readonly unwanted: string | undefined;
  /** The fire is not run (its job is gone or changed, or it is unwanted): the owner decides what that ends. */
  dropped(reason: string): Promise<void>;
  /** The runs the fire became, or was found to have become (best-effort: never rejects). */
  noteRuns(logIds: readonly number[], first: Run | undefined): Promise<void>;
  /** One of its runs is about to be sent, at `nowMs`. */
  sending(run: Run, nowMs: number): void;
}

/** A job whose runs its owner runs itself (a workflow's starter job starts a workflow run). */
export interface OwnedJob {
  /** The addresses its runs are recorded with, and where they came from (for the trigger log). */
  readonly addresses: readonly string[];
  readonly addressSource: string;
  /**
   * Runs one recorded run where an executor would be called: `reply` stands for the executor's,
   * `finish` follows once the run is recorded as sent.
   */
  send(run: Run): Promise<{ readonly reply: ReturnT<unknown>; readonly finish: () => Promise<void> }>;
}
