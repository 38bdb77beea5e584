import { AppError } from '@tickring/core/common';

/** The route exists but not for this method; the response carries an `Allow` header. */
export class MethodNotAllowedError extends AppError {
  readonly status = 405;
  constructor(
    message: string,
    readonly allow: readonly string[],
  ) {
    super(message);
  }
}
