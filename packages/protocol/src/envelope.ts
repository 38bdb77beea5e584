import { ProtocolError } from './errors.js';
import { describeValue, int, type Json } from './read.js';

/** Envelope codes (`ReturnT.SUCCESS_CODE` / `FAIL_CODE`). */
export const SUCCESS_CODE = 200;
export const FAIL_CODE = 500;

/**
 * The response envelope. XXL-JOB ≤ 3.2 calls the payload `content` (`ReturnT`), ≥ 3.3 `data` (`Response`);
 * read it with {@link payloadOf}. Absent fields are omitted on the wire (Gson without serializeNulls).
 * Every answer of either side is HTTP 200 with this body; a non-200 status means the call failed.
 *
 * @example
 * ```ts
 * const ok: ReturnT = { code: 200 };
 * const failed: ReturnT = { code: 500, msg: 'job handler [x] not found.' };
 * ```
 */
export interface ReturnT<T = string> {
  readonly code: number;
  readonly msg?: string;
  readonly content?: T;
  readonly data?: T;
}

/**
 * The payload of an envelope from any version: `content` (≤ 3.2) or `data` (≥ 3.3).
 *
 * @example
 * ```ts
 * payloadOf({ code: 200, data: 'x' }); // 'x'
 * ```
 */
export function payloadOf<T>(reply: ReturnT<T>): T | undefined {
  return reply.content ?? reply.data ?? undefined;
}

/**
 * Reads a parsed JSON answer as an envelope, whichever version sent it: `code` (an integer, or a
 * numeric string, as Gson reads an int) is required, `msg` kept as Gson reads a String (a number or
 * boolean as its text), and the payload (`content ?? data`) is moved to `content`. Throws a
 * ProtocolError naming the bad field.
 *
 * @example
 * ```ts
 * readReturnT({ code: 200, data: { logContent: '' } }); // { code: 200, content: { logContent: '' } }
 * ```
 */
export function readReturnT(raw: unknown): ReturnT<unknown> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ProtocolError('the response is not a ReturnT (a JSON object)', 'body');
  }
  const envelope = raw as Json;
  if (envelope.code === undefined || envelope.code === null) {
    throw new ProtocolError('the response has no code', 'code');
  }
  const code = int(envelope, 'code');
  const msg = messageOf(envelope.msg);
  const payload = envelope.content ?? envelope.data;
  return {
    code,
    ...(msg === undefined ? {} : { msg }),
    ...(payload === undefined || payload === null ? {} : { content: payload }),
  };
}

/** `msg` as Gson reads a String field: a number or boolean becomes its text; an object or array is an error. */
function messageOf(msg: unknown): string | undefined {
  if (msg === undefined || msg === null) return undefined;
  if (typeof msg === 'string') return msg;
  if (typeof msg === 'number' || typeof msg === 'boolean') return String(msg);
  throw new ProtocolError(`msg must be a string, got ${describeValue(msg)}`, 'msg');
}
