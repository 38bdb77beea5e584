/**
 * The XXL-JOB executor wire protocol (v2.3 – v3.4), field for field. The admin side of tickring imports
 * these types too, so the names are XXL-JOB's own, typos included (`logDateTim`).
 *
 * @packageDocumentation
 */

/** Header carrying the shared access token, in both directions (matched case-insensitively). */
export const ACCESS_TOKEN_HEADER = 'XXL-JOB-ACCESS-TOKEN';
/** Header naming the executor's AppName (required by XXL-JOB 3.5 admins, ignored by older ones). */
export const APPNAME_HEADER = 'XXL-JOB-APPNAME';

/** Envelope codes (`ReturnT.SUCCESS_CODE` / `FAIL_CODE`). */
export const SUCCESS_CODE = 200;
export const FAIL_CODE = 500;

/** Handle codes reported in callbacks (`XxlJobContext.HANDLE_CODE_*`). */
export const HANDLE_CODE_SUCCESS = 200;
export const HANDLE_CODE_FAIL = 500;
export const HANDLE_CODE_TIMEOUT = 502;

/** `handleMsg` is cut to this many characters (plus `...`) before it is called back, as the Java executor does. */
export const MAX_HANDLE_MSG_LENGTH = 50_000;

/**
 * The response envelope. XXL-JOB ≤ 3.2 calls the payload `content` (`ReturnT`), ≥ 3.3 `data` (`Response`);
 * read it as `content ?? data`. Absent fields are omitted on the wire (Gson without serializeNulls).
 *
 * @example
 * ```ts
 * const ok: ReturnT = { code: 200 };
 * const failed: ReturnT = { code: 500, msg: 'job handler [x] not found.' };
 * ```
 */
export interface ReturnT<T = string> {
  code: number;
  msg?: string;
  content?: T;
  data?: T;
}

/**
 * What the admin POSTs to an executor's `/run` (and what the dispatcher sends as a Lambda event).
 *
 * @example
 * ```ts
 * const trigger: TriggerParam = {
 *   jobId: 1, executorHandler: 'demoJobHandler', executorParams: '', executorBlockStrategy: 'SERIAL_EXECUTION',
 *   executorTimeout: 0, logId: 1, logDateTime: Date.now(), glueType: 'BEAN', glueSource: '',
 *   glueUpdatetime: 0, broadcastIndex: 0, broadcastTotal: 1,
 * };
 * ```
 */
export interface TriggerParam {
  jobId: number;
  executorHandler: string;
  executorParams: string;
  executorBlockStrategy: string;
  /** Seconds; 0 or less disables the timeout. */
  executorTimeout: number;
  logId: number;
  /** Epoch milliseconds of the trigger (the log row's trigger_time); picks the log file's date folder. */
  logDateTime: number;
  glueType: string;
  glueSource: string;
  /** Epoch milliseconds of the GLUE source's last edit; a change replaces the job's worker. */
  glueUpdatetime: number;
  broadcastIndex: number;
  broadcastTotal: number;
}

/**
 * One result, as the executor POSTs it (in a JSON array) to `{admin}/api/callback`.
 *
 * @example
 * ```ts
 * const cb: HandleCallbackParam = { logId: 7, logDateTim: 1586629003729, handleCode: 200, handleMsg: 'done' };
 * ```
 */
export interface HandleCallbackParam {
  logId: number;
  /** Sic: XXL-JOB spells it `logDateTim` up to v3.4. */
  logDateTim: number;
  handleCode: number;
  handleMsg?: string;
}

/**
 * Body of `{admin}/api/registry` and `{admin}/api/registryRemove`.
 *
 * @example
 * ```ts
 * const reg: RegistryParam = { registryGroup: 'EXECUTOR', registryKey: 'my-app', registryValue: 'http://10.0.0.5:9999/' };
 * ```
 */
export interface RegistryParam {
  registryGroup: 'EXECUTOR' | 'ADMIN';
  registryKey: string;
  registryValue: string;
}

/**
 * Body of the executor's `/log`. XXL-JOB 3.5 renames `logDateTim` to `logDateTime`; executors accept both.
 *
 * @example
 * ```ts
 * const q: LogParam = { logDateTim: 1586629003729, logId: 7, fromLineNum: 1 };
 * ```
 */
export interface LogParam {
  logDateTim: number;
  logId: number;
  /** 1-based. */
  fromLineNum: number;
}

/**
 * Payload of the `/log` answer: lines `fromLineNum..toLineNum` (1-based), each followed by `\n`.
 *
 * @example
 * ```ts
 * const r: LogResult = { fromLineNum: 1, toLineNum: 2, logContent: 'a\nb\n', isEnd: false };
 * ```
 */
export interface LogResult {
  fromLineNum: number;
  toLineNum: number;
  logContent: string;
  isEnd: boolean;
}

/**
 * Body of `/idleBeat`.
 *
 * @example
 * ```ts
 * const q: IdleBeatParam = { jobId: 1 };
 * ```
 */
export interface IdleBeatParam {
  jobId: number;
}

/**
 * Body of `/kill`.
 *
 * @example
 * ```ts
 * const q: KillParam = { jobId: 1 };
 * ```
 */
export interface KillParam {
  jobId: number;
}

/** `ExecutorBlockStrategyEnum` names (`CONCURRENT_EXECUTION` does not exist in XXL-JOB). */
export const BLOCK_STRATEGIES = ['SERIAL_EXECUTION', 'DISCARD_LATER', 'COVER_EARLY'] as const;
export type BlockStrategy = (typeof BLOCK_STRATEGIES)[number];

/** Script GLUE types, with the interpreter XXL-JOB uses and the source file suffix. */
export const GLUE_SCRIPT_TYPES = {
  GLUE_SHELL: { command: 'bash', suffix: '.sh' },
  GLUE_PYTHON: { command: 'python3', suffix: '.py' },
  GLUE_PYTHON2: { command: 'python', suffix: '.py' },
  GLUE_NODEJS: { command: 'node', suffix: '.js' },
  GLUE_POWERSHELL: { command: 'pwsh', suffix: '.ps1' },
  GLUE_PHP: { command: 'php', suffix: '.php' },
} as const;
export type GlueScriptType = keyof typeof GLUE_SCRIPT_TYPES;
/** All `GlueTypeEnum` names. */
export type GlueType = 'BEAN' | 'GLUE_GROOVY' | GlueScriptType;

/**
 * Whether a glueType names a script GLUE type (one {@link GLUE_SCRIPT_TYPES} knows).
 *
 * @example
 * ```ts
 * isGlueScriptType('GLUE_SHELL'); // true
 * isGlueScriptType('GLUE_GROOVY'); // false
 * ```
 */
export function isGlueScriptType(value: string): value is GlueScriptType {
  return Object.hasOwn(GLUE_SCRIPT_TYPES, value);
}

/** The Java executor's messages, word for word (the admin UI shows them). */
export const MSG = {
  wrongToken: 'The access token is wrong.',
  methodNotSupported: 'invalid request, HttpMethod not support.',
  uriNotFound: (uri: string) => `invalid request, uri-mapping(${uri}) not found.`,
  handlerNotFound: (name: string) => `job handler [${name}] not found.`,
  glueTypeInvalid: (glueType: string) => `glueType[${glueType}] is not valid.`,
  discardLater: 'block strategy effect：Discard Later',
  coverEarly: 'block strategy effect：Cover Early',
  changedHandler: 'change jobhandler or glue type, and terminate the old job thread.',
  repeatTrigger: (logId: number) => `repeate trigger job, logId:${logId}`,
  idleBeatBusy: 'job thread is running or has trigger queue.',
  alreadyKilled: 'job thread already killed.',
  killReason: 'scheduling center kill job.',
  idleReason: 'excutor idel times over limit.',
  runningKilled: (reason: string) => `${reason} [job running, killed]`,
  queuedKilled: (reason: string) => `${reason} [job not executed, in the job queue, killed.]`,
  timeout: 'job execute timeout',
  resultLost: 'job handle result lost.',
} as const;

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

type Json = Record<string, unknown>;

function asObject(raw: unknown, what: string): Json {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ProtocolError(`${what} must be a JSON object`, what);
  }
  return raw as Json;
}

/** An integer field; `null`/absent becomes `fallback` (Gson leaves Java primitives at 0). */
function int(body: Json, field: string, fallback?: number): number {
  const value = body[field];
  if (value === undefined || value === null || value === '') {
    if (fallback === undefined) throw new ProtocolError(`${field} is required`, field);
    return fallback;
  }
  const n = typeof value === 'string' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n)) {
    throw new ProtocolError(`${field} must be an integer, got ${JSON.stringify(value)}`, field);
  }
  return n;
}

function str(body: Json, field: string, fallback: string): string {
  const value = body[field];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'string') {
    throw new ProtocolError(`${field} must be a string, got ${JSON.stringify(value)}`, field);
  }
  return value;
}

/**
 * Reads a TriggerParam as real admins send it: absent or `null` strings become `''`, absent numbers 0,
 * absent `glueType` `BEAN`, absent block strategy `SERIAL_EXECUTION`; `jobId` and `logId` are required.
 *
 * @example
 * ```ts
 * const t = parseTriggerParam(JSON.parse(body)); // throws ProtocolError naming the bad field
 * ```
 */
export function parseTriggerParam(raw: unknown): TriggerParam {
  const body = asObject(raw, 'TriggerParam');
  return {
    jobId: int(body, 'jobId'),
    executorHandler: str(body, 'executorHandler', ''),
    executorParams: str(body, 'executorParams', ''),
    executorBlockStrategy: str(body, 'executorBlockStrategy', 'SERIAL_EXECUTION') || 'SERIAL_EXECUTION',
    executorTimeout: int(body, 'executorTimeout', 0),
    logId: int(body, 'logId'),
    logDateTime: int(body, 'logDateTime', int(body, 'logDateTim', 0)),
    glueType: str(body, 'glueType', 'BEAN') || 'BEAN',
    glueSource: str(body, 'glueSource', ''),
    glueUpdatetime: int(body, 'glueUpdatetime', 0),
    broadcastIndex: int(body, 'broadcastIndex', 0),
    broadcastTotal: int(body, 'broadcastTotal', 0),
  };
}

/**
 * Reads a `/log` body; accepts `logDateTim` (≤ 3.4) and `logDateTime` (3.5).
 *
 * @example
 * ```ts
 * parseLogParam({ logDateTime: 1586629003729, logId: 7, fromLineNum: 1 }).logDateTim; // 1586629003729
 * ```
 */
export function parseLogParam(raw: unknown): LogParam {
  const body = asObject(raw, 'LogParam');
  return {
    logDateTim: int(body, 'logDateTim', int(body, 'logDateTime', 0)),
    logId: int(body, 'logId'),
    fromLineNum: int(body, 'fromLineNum', 1),
  };
}

/**
 * Reads an `/idleBeat` or `/kill` body.
 *
 * @example
 * ```ts
 * parseJobIdParam({ jobId: 3 }); // { jobId: 3 }
 * ```
 */
export function parseJobIdParam(raw: unknown): IdleBeatParam {
  return { jobId: int(asObject(raw, 'body'), 'jobId') };
}

/**
 * Cuts a handleMsg the way the Java executor does (50,000 characters, then `...`).
 *
 * @example
 * ```ts
 * truncateHandleMsg('x'.repeat(60_000)).length; // 50_003
 * ```
 */
export function truncateHandleMsg(msg: string | undefined): string | undefined {
  if (msg === undefined || msg.length <= MAX_HANDLE_MSG_LENGTH) return msg;
  return `${msg.slice(0, MAX_HANDLE_MSG_LENGTH)}...`;
}
