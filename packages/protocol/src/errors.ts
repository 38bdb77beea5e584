/** Thrown by the `parse*` functions; the message names the field. */
export class ProtocolError extends Error {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
    this.name = 'ProtocolError';
  }
}
