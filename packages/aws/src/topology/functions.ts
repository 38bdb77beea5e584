/**
 * The functions of tickring, their entry files and Lambda settings, shared by the CDK stack and the
 * local stack (which enforces the same timeouts).
 */
export type FunctionName =
  | 'scheduler-tick'
  | 'dispatcher'
  | 'callback'
  | 'api'
  | 'monitors'
  | 'executor-runner';

export interface FunctionDefinition {
  readonly name: FunctionName;
  /** Entry file, relative to the repository root. */
  readonly entry: string;
  readonly timeoutSeconds: number;
  readonly memoryMb: number;
}

export const FUNCTIONS: Readonly<Record<FunctionName, FunctionDefinition>> = {
  // Loops ~80 s per invocation (TICKRING_TICK_LOOP_SECONDS); the timeout leaves room for the hand-over.
  'scheduler-tick': {
    name: 'scheduler-tick',
    entry: 'functions/scheduler-tick/handler.ts',
    timeoutSeconds: 90,
    memoryMb: 512,
  },
  // A fire waits at most 5 s for its time (DISPATCH_DEFAULTS.maxWaitMs), is routed and sent, and
  // nothing is sent in the invocation's last executor timeout + 2 s (its sendMarginMs): 15 s leaves
  // 5 s to route. Short, because a fire held by a dispatcher that dies comes back only after the
  // ring queues' visibility timeout, six times this (QUEUES).
  dispatcher: {
    name: 'dispatcher',
    entry: 'functions/dispatcher/handler.ts',
    timeoutSeconds: 15,
    memoryMb: 512,
  },
  callback: { name: 'callback', entry: 'functions/callback/handler.ts', timeoutSeconds: 30, memoryMb: 256 },
  api: { name: 'api', entry: 'functions/api/handler.ts', timeoutSeconds: 30, memoryMb: 256 },
  monitors: { name: 'monitors', entry: 'functions/monitors/handler.ts', timeoutSeconds: 60, memoryMb: 256 },
  'executor-runner': {
    name: 'executor-runner',
    entry: 'functions/executor-runner/handler.ts',
    timeoutSeconds: 900,
    memoryMb: 512,
  },
};
