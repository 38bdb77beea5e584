import { ProtocolError } from './errors.js';
import { asObject, int, intEitherSpelling, str } from './read.js';

/**
 * The executor's endpoints, called by the admin (`POST {address}{path}`, exact paths, no query).
 * XXL-JOB 3.5 renamed `/run` to `/trigger`; see {@link TRIGGER_PATHS}.
 */
export const EXECUTOR_PATH = {
  beat: '/beat',
  idleBeat: '/idleBeat',
  run: '/run',
  trigger: '/trigger',
  kill: '/kill',
  log: '/log',
} as const;
export type ExecutorPath = (typeof EXECUTOR_PATH)[keyof typeof EXECUTOR_PATH];

/**
 * Where each generation of executor takes a TriggerParam: `/run` up to 3.4, `/trigger` from 3.5.
 * An executor answers the other one with {@link MSG}`.uriNotFound(path)` and runs nothing.
 */
export const TRIGGER_PATHS = [EXECUTOR_PATH.run, EXECUTOR_PATH.trigger] as const;
export type TriggerPath = (typeof TRIGGER_PATHS)[number];

/** Handle codes reported in results and callbacks (`XxlJobContext.HANDLE_CODE_*`). */
export const HANDLE_CODE = { success: 200, fail: 500, timeout: 502 } as const;

/** `handleMsg` is cut to this many characters (plus `...`) before it is called back, as the Java executor does. */
export const MAX_HANDLE_MSG_LENGTH = 50_000;

/**
 * What the admin POSTs to an executor's `/run` or `/trigger` (and what tickring's dispatcher sends as a
 * Lambda event). Identical in every version (3.5 calls it `TriggerRequest`).
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
 * Body of the executor's `/log`: `LogParam {logDateTim, logId, fromLineNum}` up to 3.4. XXL-JOB 3.5's
 * `LogRequest` spells it `logDateTime` (some 3.5 builds keep `logDateTim`), and a Java executor reads
 * only its own spelling (Gson ignores the other and leaves 0, so it looks in the 1970-01-01 folder).
 * tickring's executors ({@link parseLogParam}) accept either. An admin that may talk to any
 * generation sends both: the B.2 fields, then `logDateTime` with the same value.
 *
 * @example
 * ```ts
 * const q: LogParam = { logDateTim: 1586629003729, logId: 7, fromLineNum: 1, logDateTime: 1586629003729 };
 * ```
 */
export interface LogParam {
  logDateTim: number;
  logId: number;
  /** 1-based. */
  fromLineNum: number;
  /** The 3.5 spelling of `logDateTim`, for 3.5 executors; the same value when sent. */
  logDateTime?: number;
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
export const GLUE_TYPES = [
  'BEAN',
  'GLUE_GROOVY',
  ...(Object.keys(GLUE_SCRIPT_TYPES) as GlueScriptType[]),
] as const;
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
    logDateTime: intEitherSpelling(body, 'logDateTime', 'logDateTim', 0),
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
    logDateTim: intEitherSpelling(body, 'logDateTim', 'logDateTime', 0),
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
 * Reads the payload of a `/log` answer, or throws a ProtocolError naming the field.
 *
 * @example
 * ```ts
 * parseLogResult({ fromLineNum: 1, toLineNum: 0, logContent: '', isEnd: true }).isEnd; // true
 * ```
 */
export function parseLogResult(raw: unknown): LogResult {
  const body = asObject(raw, 'LogResult');
  const isEnd = body.isEnd ?? false;
  if (typeof isEnd !== 'boolean') throw new ProtocolError('isEnd must be a boolean', 'isEnd');
  return {
    fromLineNum: int(body, 'fromLineNum', 0),
    toLineNum: int(body, 'toLineNum', 0),
    logContent: str(body, 'logContent', ''),
    isEnd,
  };
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
