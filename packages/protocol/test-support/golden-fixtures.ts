/**
 * XXL-JOB wire bodies as JSON text, for the golden tests (golden.test.ts). Each names the section of
 * /work/shared/reference/xxl-job.md it comes from. "Verbatim" means copied character for character
 * from the reference; "Gson rendering" means the reference gives the field list (in the Java class's
 * order) and the string is what Gson without serializeNulls writes for it (B.0: compact, nulls
 * omitted), with the values of the B.2 TriggerParam example.
 */

/** The trigger time and log id of the B.2 example, reused by the other bodies. */
export const LOG_DATE_TIME = 1586629003729;

// ---------------------------------------------------------------- B.2 executor endpoints

/** B.2 "Example in the doc": TriggerParam, verbatim. */
export const TRIGGER_PARAM_DOC =
  '{"jobId":1,"executorHandler":"demoJobHandler","executorParams":"","executorBlockStrategy":"COVER_EARLY","executorTimeout":0,"logId":1,"logDateTime":1586629003729,"glueType":"BEAN","glueSource":"xxx","glueUpdatetime":1586629003727,"broadcastIndex":0,"broadcastTotal":0}';

/**
 * B.2 TriggerParam + B.0 (Gson omits nulls): a BEAN job with no param and no GLUE source, as a Java
 * admin sends it — `executorParams` and `glueSource` are null in Java and so absent; a non-sharded
 * trigger sends index 0, total 1 (B.2).
 */
export const TRIGGER_PARAM_GSON_NULLS_OMITTED =
  '{"jobId":1,"executorHandler":"demoJobHandler","executorBlockStrategy":"SERIAL_EXECUTION","executorTimeout":0,"logId":1,"logDateTime":1586629003729,"glueType":"BEAN","glueUpdatetime":1586629003727,"broadcastIndex":0,"broadcastTotal":1}';

/** B.2 TriggerParam with the Java nulls written out (an admin serialising with serializeNulls). */
export const TRIGGER_PARAM_EXPLICIT_NULLS =
  '{"jobId":1,"executorHandler":"demoJobHandler","executorParams":null,"executorBlockStrategy":null,"executorTimeout":0,"logId":1,"logDateTime":1586629003729,"glueType":null,"glueSource":null,"glueUpdatetime":1586629003727,"broadcastIndex":0,"broadcastTotal":1}';

/** B.2 IdleBeatParam `{"jobId":int}`, verbatim shape. */
export const IDLE_BEAT_PARAM = '{"jobId":1}';

/** B.2 KillParam `{"jobId":int}`, verbatim shape. */
export const KILL_PARAM = '{"jobId":1}';

/** B.2 LogParam (v2.3–3.4) `{"logDateTim":long, "logId":long, "fromLineNum":int}`: Gson rendering (typo kept). */
export const LOG_PARAM = '{"logDateTim":1586629003729,"logId":1,"fromLineNum":1}';

/** B.6 (3.5) `LogRequest {logId,logDateTime,fromLineNum}`: Gson rendering (typo fixed, order changed). */
export const LOG_REQUEST_35 = '{"logId":1,"logDateTime":1586629003729,"fromLineNum":1}';

/** B.2 LogResult `{"fromLineNum":int, "toLineNum":int, "logContent":String, "isEnd":boolean}`: Gson rendering. */
export const LOG_RESULT =
  '{"fromLineNum":1,"toLineNum":2,"logContent":"2020-04-12 02:16:43 [demoJobHandler] start\\n2020-04-12 02:16:43 [demoJobHandler] end\\n","isEnd":false}';

/** B.2 LogResult for "file not found" (the only case the executor says isEnd=true; A. Logging), content null so omitted. */
export const LOG_RESULT_END = '{"fromLineNum":0,"toLineNum":0,"isEnd":true}';

/** B.6 (3.5) `LogData {fromLineNum,toLineNum,logContent,isEnd}`: Gson rendering. */
export const LOG_DATA_35 = '{"fromLineNum":3,"toLineNum":3,"logContent":"done\\n","isEnd":false}';

// ---------------------------------------------------------------- B.0 / B.1 envelopes

/** B.0 "`/beat` returns exactly `{"code":200}`", verbatim. */
export const BEAT_ANSWER = '{"code":200}';

/** B.1 ≤ 3.2 `ReturnT<LogResult>` `{"code":int, "msg":String, "content":T}`, msg null so omitted. */
export const RETURN_T_LOG_RESULT = `{"code":200,"content":${LOG_RESULT}}`;

/** B.1 ≥ 3.3 `Response<LogData>` `{"code":int, "msg":String, "data":T}` (the msg text is illustrative). */
export const RESPONSE_LOG_DATA = `{"code":200,"msg":"success","data":${LOG_DATA_35}}`;

/** B.2 `/idleBeat` answer when busy: 500 "job thread is running or has trigger queue.", as ReturnT. */
export const IDLE_BEAT_BUSY_ANSWER = '{"code":500,"msg":"job thread is running or has trigger queue."}';

/** B.6 3.5 `addJob` "returns `data` = the new id as a string", as Response. */
export const ADD_JOB_ANSWER_35 = '{"code":200,"data":"42"}';

/** "XXL-JOB 3.5": a 3.5 executor's answer to `/run`, verbatim. */
export const URI_NOT_FOUND_RUN_35 = '{"code":500,"msg":"invalid request, uri-mapping(/run) not found."}';

/** B.0 `{code:500,msg:"invalid request, HttpMethod not support."}` (written JS-style there), as JSON. */
export const METHOD_NOT_SUPPORTED = '{"code":500,"msg":"invalid request, HttpMethod not support."}';

/** B.0 the v2.x–3.4 token refusal "The access token is wrong." (code 500), as ReturnT. */
export const WRONG_TOKEN = '{"code":500,"msg":"The access token is wrong."}';

/** B.3 `api/registry` with a blank field: 500 "Illegal Argument.", as ReturnT. */
export const ILLEGAL_ARGUMENT = '{"code":500,"msg":"Illegal Argument."}';

// ---------------------------------------------------------------- B.3 / B.6 admin endpoints

/** B.3 HandleCallbackParam (v2.3.0 → v3.4.x), POSTed as a bare JSON array: Gson rendering. */
export const CALLBACK_BARE_ARRAY =
  '[{"logId":1,"logDateTim":1586629003729,"handleCode":200,"handleMsg":"ok"},{"logId":2,"logDateTim":1586629003730,"handleCode":500,"handleMsg":"job handler [x] not found."},{"logId":3,"logDateTim":1586629003731,"handleCode":502,"handleMsg":"job execute timeout"}]';

/** B.3 HandleCallbackParam with handleMsg null (Gson omits it). */
export const CALLBACK_BARE_ARRAY_NO_MSG = '[{"logId":1,"logDateTim":1586629003729,"handleCode":200}]';

/**
 * B.3 "(In v2.2.x the shape was instead `{"logId","logDateTim","executeResult":{"code","msg","content"}}`.)":
 * Gson rendering, `content` null so omitted; the second item has a null msg too.
 */
export const CALLBACK_V22 =
  '[{"logId":1,"logDateTim":1586629003729,"executeResult":{"code":200,"msg":"ok"}},{"logId":2,"logDateTim":1586629003730,"executeResult":{"code":500}}]';

/** B.6 3.5 `CallbackRequest {"callbackList":[CallbackData{logId,logDateTime,handleCode,handleMsg}]}` (typo fixed). */
export const CALLBACK_35_LOG_DATE_TIME =
  '{"callbackList":[{"logId":1,"logDateTime":1586629003729,"handleCode":200,"handleMsg":"ok"}]}';

/** "XXL-JOB 3.5" section: `{"callbackList":[{logId, logDateTim, handleCode, handleMsg}]}` (typo kept). */
export const CALLBACK_35_LOG_DATE_TIM =
  '{"callbackList":[{"logId":1,"logDateTim":1586629003729,"handleCode":200,"handleMsg":"ok"}]}';

/** B.3 RegistryParam, verbatim (spaces and placeholders as the reference writes it). */
export const REGISTRY_PARAM_DOC =
  '{"registryGroup":"EXECUTOR", "registryKey":"<appname>", "registryValue":"http://ip:9999/"}';

/** B.3 RegistryParam as Gson writes it (compact), with a real app name and address. */
export const REGISTRY_PARAM =
  '{"registryGroup":"EXECUTOR","registryKey":"xxl-job-executor-sample","registryValue":"http://127.0.0.1:9999/"}';
