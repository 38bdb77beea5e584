import { ProtocolError } from './errors.js';

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
 * Reads a parsed JSON answer as an envelope, whichever version sent it: `code` (a number, or a
 * numeric string) is required, `msg` kept when it is a string, and the payload (`content ?? data`)
 * moved to `content`. Throws a ProtocolError saying what is missing.
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
  const envelope = raw as { code?: unknown; msg?: unknown; content?: unknown; data?: unknown };
  const code = typeof envelope.code === 'string' ? Number(envelope.code) : envelope.code;
  if (typeof code !== 'number' || !Number.isInteger(code)) {
    throw new ProtocolError('the response has no code', 'code');
  }
  const payload = envelope.content ?? envelope.data;
  return {
    code,
    ...(typeof envelope.msg === 'string' ? { msg: envelope.msg } : {}),
    ...(payload === undefined || payload === null ? {} : { content: payload }),
  };
}
