import type { LogResult, ReturnT, TriggerParam } from '@tickring/protocol';

/** Which executor to call: its address, and the AppName of the group it serves in this call. */
export interface ExecutorTarget {
  /** `http(s)://host:port/` or `lambda:<function>`. */
  readonly address: string;
  /** Sent as `XXL-JOB-APPNAME` (XXL-JOB 3.5 executors require it); picks the group's access token. */
  readonly appName: string;
}

/**
 * The admin→executor calls of the XXL-JOB protocol, over HTTP (`http(s)://...`) or Lambda
 * (`lambda:<function>`). Failures are replies with code 500 and a message, never exceptions.
 * Replies carry the payload in `content`, whichever version answered.
 */
export interface ExecutorTransport {
  run(target: ExecutorTarget, param: TriggerParam): Promise<ReturnT<unknown>>;
  beat(target: ExecutorTarget): Promise<ReturnT<unknown>>;
  idleBeat(target: ExecutorTarget, jobId: number): Promise<ReturnT<unknown>>;
  kill(target: ExecutorTarget, jobId: number): Promise<ReturnT<unknown>>;
  log(
    target: ExecutorTarget,
    logDateTime: number,
    logId: number,
    fromLineNum: number,
  ): Promise<ReturnT<LogResult>>;
}
