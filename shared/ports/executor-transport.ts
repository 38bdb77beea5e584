import type { TriggerParam } from '../../executor/protocol.js';

/** XXL-JOB's ReturnT / Response envelope, read as `content ?? data`. */
export interface ExecutorReply<T = unknown> {
  readonly code: number;
  readonly msg?: string;
  readonly content?: T;
}

export interface ExecutorLogResult {
  readonly fromLineNum: number;
  readonly toLineNum: number;
  readonly logContent: string;
  readonly isEnd: boolean;
}

/**
 * The admin→executor calls of the XXL-JOB protocol, over HTTP (`http(s)://...`) or Lambda
 * (`lambda:<function>`). Failures are replies with code 500 and a message, never exceptions.
 */
export interface ExecutorTransport {
  run(address: string, param: TriggerParam): Promise<ExecutorReply>;
  beat(address: string): Promise<ExecutorReply>;
  idleBeat(address: string, jobId: number): Promise<ExecutorReply>;
  kill(address: string, jobId: number): Promise<ExecutorReply>;
  log(
    address: string,
    logDateTime: number,
    logId: number,
    fromLineNum: number,
  ): Promise<ExecutorReply<ExecutorLogResult>>;
}
