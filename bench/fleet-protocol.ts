import type { TriggerParam } from '@tickring/protocol';

/** The no-op handler every bench job runs. */
export const BENCH_HANDLER = 'benchNoop';

/** The handler of the workflow bench's nodes (see workflow-shape.ts): a few ms, then a small JSON result. */
export const WORKFLOW_HANDLER = 'benchWorkflowNode';

export interface FleetWorkerData {
  /** The group of the worker's one executor. */
  readonly appName: string;
  readonly adminUrl: string;
  readonly accessToken: string;
  readonly logRoot: string;
}

/** One run as an executor's handler received it. */
export interface RunNotice {
  readonly jobId: number;
  readonly logDateTime: number;
  readonly logId: number;
  /** Epoch ms the handler was called. */
  readonly receivedAt: number;
  readonly trigger: TriggerParam;
  /** The executor that ran it. */
  readonly address: string;
}

export type FleetWorkerMessage =
  | {
      readonly type: 'ready';
      readonly address: string;
      /** The worker's OS thread id (Linux), whose CPU the bench reports apart. */
      readonly threadId?: number;
    }
  | { readonly type: 'runs'; readonly runs: readonly RunNotice[] }
  | { readonly type: 'failed'; readonly error: string }
  | { readonly type: 'stopped' };
