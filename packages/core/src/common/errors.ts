/**
 * The error taxonomy. HTTP adapters map `status` (4xx messages are shown to the caller, anything
 * else becomes a generic 500 whose detail is only logged); queue consumers use `retryable`.
 */
export abstract class AppError extends Error {
  abstract readonly status: number;
  /** Whether a queue consumer should let the message be redelivered. */
  readonly retryable: boolean = false;

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Bad input: the message names the field and what is wrong with it. */
export class ValidationError extends AppError {
  readonly status = 400;
  constructor(
    message: string,
    readonly field?: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

export class UnauthorizedError extends AppError {
  readonly status = 401;
}

export class NotFoundError extends AppError {
  readonly status = 404;
}

/** The caller is known but may not do this (a 404 instead where saying so would reveal an id). */
export class ForbiddenError extends AppError {
  readonly status = 403;
}

export class ConflictError extends AppError {
  readonly status = 409;
}

/**
 * Too many attempts (failed sign-ins): refused without being looked at until `retryAfterSeconds`
 * have passed (the answer's `Retry-After`).
 */
export class TooManyRequestsError extends AppError {
  readonly status = 429;
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/**
 * The store cannot take writes for now (the embedded database's disk is full): nothing of the request
 * was written; it may be tried again once the operator has freed space (`Retry-After`), and a queue
 * consumer lets its message be redelivered.
 */
export class StoreUnavailableError extends AppError {
  readonly status = 503;
  override readonly retryable = true;
  constructor(
    message: string,
    readonly retryAfterSeconds = 30,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** A failure that will not get better by retrying (a message is dropped, not redriven). */
export class PermanentError extends AppError {
  readonly status = 500;
}

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}

/** One thing wrong with a request: the field (path or query parameter, or top-level body field) and what. */
export interface Problem {
  /** The parameter or top-level body field; `body` for the body as a whole. */
  readonly field?: string;
  /** Names the field, says what is expected and what was given. */
  readonly message: string;
}

/**
 * A request refused for every structural problem found in it at once (path parameters, query and
 * body). It is a ValidationError like the domain's: `message` joins the problems, `field` is the
 * first one's, and the 400 lists them all under `problems`.
 */
export class RequestValidationError extends ValidationError {
  constructor(readonly problems: readonly [Problem, ...Problem[]]) {
    super(problems.map((p) => p.message).join('; '), problems[0].field);
    // The answer names the error by kind: a 400 is a ValidationError whoever found it.
    this.name = 'ValidationError';
  }
}

/** The problems of any ValidationError: the list of a RequestValidationError, else its one problem. */
export function problemsOf(err: ValidationError): readonly Problem[] {
  if (err instanceof RequestValidationError) return err.problems;
  return [err.field === undefined ? { message: err.message } : { field: err.field, message: err.message }];
}
