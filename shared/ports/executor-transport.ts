import type { LogResult, ReturnT, TriggerParam } from '@tickring/protocol';

/**
 * The admin→executor calls of the XXL-JOB protocol, over HTTP (`http(s)://...`) or Lambda
 * (`lambda:<function>`). Failures are replies with code 500 and a message, never exceptions.
 */
export interface ExecutorTransport {
  run(address: string, param: TriggerParam): Promise<ReturnT<unknown>>;
  beat(address: string): Promise<ReturnT<unknown>>;
  idleBeat(address: string, jobId: number): Promise<ReturnT<unknown>>;
  kill(address: string, jobId: number): Promise<ReturnT<unknown>>;
  log(address: string, logDateTime: number, logId: number, fromLineNum: number): Promise<ReturnT<LogResult>>;
}
