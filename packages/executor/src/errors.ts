/** Thrown by `createExecutor` and `lambdaExecutor` on bad options; `field` names the option. */
export class ExecutorOptionsError extends Error {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
    this.name = 'ExecutorOptionsError';
  }
}
