import { ProtocolError } from './errors.js';
import { MSG } from './messages.js';
import { asObject, describeValue, int, intEitherSpelling, type Json } from './read.js';

/** The admin's endpoints, called by executors: `POST {adminBase}/api/{name}`. */
export const ADMIN_API = ['callback', 'registry', 'registryRemove'] as const;
export type AdminApiName = (typeof ADMIN_API)[number];

/** The context path of XXL-JOB 2.x – 3.4.0 admins (`http://host:8080/xxl-job-admin/api/...`); 3.4.1 dropped it. */
export const LEGACY_ADMIN_CONTEXT_PATH = '/xxl-job-admin';

/**
 * `{base}/api/{name}` for an admin base URL with or without a context path or trailing slash.
 *
 * @example
 * ```ts
 * adminApiUrl('http://host/xxl-job-admin/', 'callback'); // 'http://host/xxl-job-admin/api/callback'
 * ```
 */
export function adminApiUrl(base: string, name: AdminApiName): string {
  return `${base.replace(/\/+$/, '')}/api/${name}`;
}

/**
 * The `{name}` of an admin API path: `/api/{name}` or `/xxl-job-admin/api/{name}`; anything else is
 * returned without its leading slashes (for the "uri-mapping not found" answer).
 *
 * @example
 * ```ts
 * adminApiName('/xxl-job-admin/api/registry'); // 'registry'
 * ```
 */
export function adminApiName(path: string): string {
  const match = /^(?:\/xxl-job-admin)?\/api\/(.*)$/.exec(path);
  return match ? (match[1] ?? '') : path.replace(/^\/+/, '');
}

/** Whether `name` is one of the admin's executor-facing endpoints. */
export function isAdminApiName(name: string): name is AdminApiName {
  return (ADMIN_API as readonly string[]).includes(name);
}

/**
 * One result, as executors up to 3.4 POST it (in a bare JSON array) to `{admin}/api/callback`.
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
 * The 3.5 callback body: the same results wrapped in `callbackList` (`CallbackRequest`), each
 * `CallbackData` with `logDateTime` spelled out (some 3.5 builds keep `logDateTim`).
 *
 * @example
 * ```ts
 * const body: CallbackRequest = { callbackList: [{ logId: 7, logDateTime: 1586629003729, handleCode: 200 }] };
 * ```
 */
export interface CallbackRequest {
  callbackList: CallbackData[];
}
export interface CallbackData {
  logId: number;
  logDateTime: number;
  handleCode: number;
  handleMsg?: string;
}

/** One result read from any callback body shape. */
export interface CallbackResult {
  readonly logId: number;
  /** `logDateTim` (≤ 3.4) or `logDateTime` (3.5); 0 when absent. */
  readonly logDateTime: number;
  readonly handleCode: number;
  /** `''` when absent; a non-string message is kept as its JSON. */
  readonly handleMsg: string;
}

/**
 * Reads an `/api/callback` body of any generation: a bare array of HandleCallbackParam (2.3 – 3.4),
 * the 3.5 `{"callbackList": [...]}`, and the 2.2 item shape `{logId, logDateTim, executeResult: {code,
 * msg}}`. A bad item rejects the whole batch with a ProtocolError naming the item and field
 * (`callbackList[2].handleCode`), so nothing of a malformed batch is applied.
 *
 * @example
 * ```ts
 * parseCallbackRequest([{ logId: 7, logDateTim: 1, handleCode: 200 }]);
 * // [{ logId: 7, logDateTime: 1, handleCode: 200, handleMsg: '' }]
 * ```
 */
export function parseCallbackRequest(body: unknown): CallbackResult[] {
  let list: unknown;
  if (Array.isArray(body)) list = body;
  else if (body !== null && typeof body === 'object' && 'callbackList' in body) {
    list = (body as { callbackList: unknown }).callbackList;
    if (!Array.isArray(list)) {
      throw new ProtocolError(
        `callbackList must be a JSON array, got ${describeValue(list)}`,
        'callbackList',
      );
    }
  }
  if (!Array.isArray(list)) {
    throw new ProtocolError(
      'the callback body must be a JSON array of results or {"callbackList": [...]}',
      'body',
    );
  }
  return list.map((raw, index) => parseCallbackItem(raw, `callbackList[${index}]`));
}

function parseCallbackItem(raw: unknown, where: string): CallbackResult {
  const item = asObject(raw, where);
  const logId = int(item, 'logId', undefined, `${where}.logId`);
  if (logId <= 0) throw new ProtocolError(`${where}.logId must be a positive integer`, `${where}.logId`);
  const logDateTime = intEitherSpelling(item, 'logDateTim', 'logDateTime', 0, `${where}.`);
  // v2.2.x executors wrap the result: {"executeResult": {"code": 200, "msg": "..."}}.
  const legacy: Json | undefined =
    item.executeResult !== null &&
    typeof item.executeResult === 'object' &&
    !Array.isArray(item.executeResult)
      ? (item.executeResult as Json)
      : undefined;
  const handleCode =
    (item.handleCode === undefined || item.handleCode === null) && legacy
      ? int(legacy, 'code', undefined, `${where}.executeResult.code`)
      : int(item, 'handleCode', undefined, `${where}.handleCode`);
  return { logId, logDateTime, handleCode, handleMsg: text(item.handleMsg ?? legacy?.msg) };
}

function text(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return typeof value === 'bigint' ? String(value) : Object.prototype.toString.call(value);
  }
}

/**
 * Body of `{admin}/api/registry` and `{admin}/api/registryRemove` (the same in every version).
 *
 * @example
 * ```ts
 * const reg: RegistryParam = { registryGroup: 'EXECUTOR', registryKey: 'my-app', registryValue: 'http://10.0.0.5:9999/' };
 * ```
 */
export interface RegistryParam {
  registryGroup: 'EXECUTOR' | 'ADMIN';
  /** The executor's AppName. */
  registryKey: string;
  /** Its address, e.g. `http://10.0.0.5:9999/`. */
  registryValue: string;
}

/** The columns' widths in XXL-JOB's `xxl_job_registry` (`registry_group` is 50, held to the key's 255 here). */
export const REGISTRY_LIMITS = { registryGroup: 255, registryKey: 255, registryValue: 2048 } as const;

/**
 * Reads a registry body: each field a non-blank string (XXL-JOB answers "Illegal Argument." to a
 * blank one), trimmed; a value longer than {@link REGISTRY_LIMITS} says so. `registryGroup` is
 * returned as sent (upper-case it to compare), since only `EXECUTOR` registrations mean anything.
 *
 * @example
 * ```ts
 * parseRegistryParam({ registryGroup: 'EXECUTOR', registryKey: 'app', registryValue: 'http://h:9999/' });
 * ```
 */
export function parseRegistryParam(raw: unknown): {
  registryGroup: string;
  registryKey: string;
  registryValue: string;
} {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ProtocolError(MSG.illegalArgument, 'body');
  }
  const body = raw as Json;
  const field = (name: keyof typeof REGISTRY_LIMITS): string => {
    const value = body[name];
    if (typeof value !== 'string' || value.trim() === '') throw new ProtocolError(MSG.illegalArgument, name);
    const max = REGISTRY_LIMITS[name];
    if (value.length > max) {
      throw new ProtocolError(`Illegal Argument: ${name} is longer than ${max} characters.`, name);
    }
    return value.trim();
  };
  return {
    registryGroup: field('registryGroup'),
    registryKey: field('registryKey'),
    registryValue: field('registryValue'),
  };
}
