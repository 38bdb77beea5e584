/** A start-up failure of the local stack: its message is one line that names the problem. */
export class LocalStartError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'LocalStartError';
  }
}
