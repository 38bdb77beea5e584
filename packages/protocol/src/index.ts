/**
 * The XXL-JOB executor wire protocol (2.2 – 3.5), field for field: what an admin (scheduling center)
 * and an executor say to each other. The names are XXL-JOB's own, typos included (`logDateTim`).
 * No dependencies; both tickring's scheduler and its executor SDK import it, and nothing else in
 * tickring defines these shapes.
 *
 * Version differences, in short: ≤ 3.2 answers `{code, msg, content}`, ≥ 3.3 `{code, msg, data}`
 * ({@link payloadOf}); 2.2 callbacks carry `executeResult`, 2.3 – 3.4 a bare array, 3.5
 * `{callbackList}` ({@link parseCallbackRequest}); 3.5 executors take triggers on `/trigger` instead of
 * `/run` ({@link TRIGGER_PATHS}) and require {@link APPNAME_HEADER} beside the token.
 *
 * @packageDocumentation
 */
export {
  ADMIN_API,
  type AdminApiName,
  adminApiName,
  adminApiUrl,
  type CallbackData,
  type CallbackRequest,
  type CallbackResult,
  type HandleCallbackParam,
  isAdminApiName,
  LEGACY_ADMIN_CONTEXT_PATH,
  parseCallbackRequest,
  parseRegistryParam,
  REGISTRY_LIMITS,
  type RegistryParam,
} from './admin-api.js';
export { FAIL_CODE, payloadOf, type ReturnT, readReturnT, SUCCESS_CODE } from './envelope.js';
export { ProtocolError } from './errors.js';
export {
  BLOCK_STRATEGIES,
  type BlockStrategy,
  EXECUTOR_PATH,
  type ExecutorPath,
  GLUE_SCRIPT_TYPES,
  GLUE_TYPES,
  type GlueScriptType,
  type GlueType,
  HANDLE_CODE,
  type IdleBeatParam,
  isGlueScriptType,
  type KillParam,
  type LogParam,
  type LogResult,
  MAX_HANDLE_MSG_LENGTH,
  parseJobIdParam,
  parseLogParam,
  parseLogResult,
  parseTriggerParam,
  TRIGGER_PATHS,
  type TriggerParam,
  type TriggerPath,
  truncateHandleMsg,
} from './executor-api.js';
export {
  ACCESS_TOKEN_HEADER,
  APPNAME_HEADER,
  EXECUTOR_RESPONSE_CONTENT_TYPE,
  REQUEST_CONTENT_TYPE,
} from './headers.js';
export { MSG } from './messages.js';
