/**
 * Golden tests: every body shape of the XXL-JOB wire protocol against the JSON the reference
 * (/work/shared/reference/xxl-job.md, B.0–B.7 and "XXL-JOB 3.5") documents. Parsing the reference's
 * JSON gives the expected value; what our types hold serialises (JSON.stringify) to the reference's
 * JSON byte for byte — fields in the Java class's order, absent optional fields omitted as Gson does.
 * Hostile input makes every parser throw a ProtocolError naming the field, never a TypeError.
 */
import { describe, expect, it } from 'vitest';
import * as G from '../test-support/golden-fixtures.js';
import {
  ACCESS_TOKEN_HEADER,
  ADMIN_API,
  APPNAME_HEADER,
  adminApiName,
  adminApiUrl,
  BLOCK_STRATEGIES,
  type CallbackRequest,
  type CallbackResult,
  EXECUTOR_PATH,
  EXECUTOR_RESPONSE_CONTENT_TYPE,
  FAIL_CODE,
  GLUE_SCRIPT_TYPES,
  GLUE_TYPES,
  HANDLE_CODE,
  type HandleCallbackParam,
  type IdleBeatParam,
  isAdminApiName,
  isGlueScriptType,
  type KillParam,
  LEGACY_ADMIN_CONTEXT_PATH,
  type LogParam,
  type LogResult,
  MAX_HANDLE_MSG_LENGTH,
  MSG,
  ProtocolError,
  parseCallbackRequest,
  parseJobIdParam,
  parseLogParam,
  parseLogResult,
  parseRegistryParam,
  parseTriggerParam,
  payloadOf,
  REQUEST_CONTENT_TYPE,
  type RegistryParam,
  type ReturnT,
  readReturnT,
  SUCCESS_CODE,
  TRIGGER_PATHS,
  type TriggerParam,
  truncateHandleMsg,
} from './index.js';

/** Runs `fn` and returns the ProtocolError it throws; fails on no throw or on any other error (a TypeError). */
function protocolErrorOf(fn: () => unknown): ProtocolError {
  let thrown: unknown;
  try {
    fn();
  } catch (err) {
    thrown = err;
  }
  if (thrown === undefined) throw new Error('expected a ProtocolError, but nothing was thrown');
  if (!(thrown instanceof ProtocolError)) {
    throw new Error(`expected a ProtocolError, got ${String(thrown)}`, { cause: thrown });
  }
  return thrown;
}

/** `fn` throws a ProtocolError whose `field` is `field` and whose message names it. */
function expectRejects(fn: () => unknown, field: string, message?: string | RegExp): void {
  const err = protocolErrorOf(fn);
  expect(err.field).toBe(field);
  expect(err.name).toBe('ProtocolError');
  if (message === undefined) expect(err.message).toContain(field);
  else if (typeof message === 'string') expect(err.message).toBe(message);
  else expect(err.message).toMatch(message);
}

/** A JSON object with `field` replaced by `value` (given as JSON text, so huge numbers arrive as the wire has them). */
function withField(json: string, field: string, valueJson: string): unknown {
  const body = JSON.parse(json) as Record<string, unknown>;
  body[field] = JSON.parse(valueJson);
  return body;
}

function withoutField(json: string, field: string): unknown {
  const body = JSON.parse(json) as Record<string, unknown>;
  delete body[field];
  return body;
}

/** Values of the wrong type or out of range for an integer field, as JSON text. */
const NOT_INTEGERS = [
  '"x"',
  '"1e3"',
  '"0x10"',
  '" "',
  '"12abc"',
  'true',
  'false',
  '1.5',
  '{}',
  '[]',
  '[1]',
  '{"value":1}',
  '9007199254740992', // 2^53: not a safe integer
  '-9007199254740992',
  '1e300',
  '"9007199254740993"',
  '"99999999999999999999"',
];

/** Values of the wrong type for a string field, as JSON text. */
const NOT_STRINGS = ['0', '5', '1.5', 'true', 'false', '{}', '[]', '["a"]', '{"a":"b"}'];

/** Bodies that are not a JSON object. */
const NOT_OBJECTS: unknown[] = [null, undefined, [], [{}], 'x', '{}', 0, 1, true, false];

// =====================================================================================================
describe('B.2 TriggerParam (POST /run; 3.5 /trigger, same body)', () => {
  const docValue: TriggerParam = {
    jobId: 1,
    executorHandler: 'demoJobHandler',
    executorParams: '',
    executorBlockStrategy: 'COVER_EARLY',
    executorTimeout: 0,
    logId: 1,
    logDateTime: 1586629003729,
    glueType: 'BEAN',
    glueSource: 'xxx',
    glueUpdatetime: 1586629003727,
    broadcastIndex: 0,
    broadcastTotal: 0,
  };

  it('parses the doc example verbatim', () => {
    expect(parseTriggerParam(JSON.parse(G.TRIGGER_PARAM_DOC))).toStrictEqual(docValue);
  });

  it('serialises to the doc example byte for byte, fields in the Java class order', () => {
    expect(JSON.stringify(docValue)).toBe(G.TRIGGER_PARAM_DOC);
    expect(JSON.stringify(parseTriggerParam(JSON.parse(G.TRIGGER_PARAM_DOC)))).toBe(G.TRIGGER_PARAM_DOC);
    expect(Object.keys(parseTriggerParam({ jobId: 1, logId: 1 }))).toEqual([
      'jobId',
      'executorHandler',
      'executorParams',
      'executorBlockStrategy',
      'executorTimeout',
      'logId',
      'logDateTime',
      'glueType',
      'glueSource',
      'glueUpdatetime',
      'broadcastIndex',
      'broadcastTotal',
    ]);
  });

  const gsonDefaults: TriggerParam = {
    jobId: 1,
    executorHandler: 'demoJobHandler',
    executorParams: '',
    executorBlockStrategy: 'SERIAL_EXECUTION',
    executorTimeout: 0,
    logId: 1,
    logDateTime: G.LOG_DATE_TIME,
    glueType: 'BEAN',
    glueSource: '',
    glueUpdatetime: 1586629003727,
    broadcastIndex: 0,
    broadcastTotal: 1,
  };

  it('reads a Java admin body with null strings omitted (Gson without serializeNulls)', () => {
    expect(parseTriggerParam(JSON.parse(G.TRIGGER_PARAM_GSON_NULLS_OMITTED))).toStrictEqual(gsonDefaults);
  });

  it('reads the same body with the nulls written out as it does with them omitted', () => {
    expect(parseTriggerParam(JSON.parse(G.TRIGGER_PARAM_EXPLICIT_NULLS))).toStrictEqual(gsonDefaults);
  });

  it('defaults every field but jobId and logId (Java leaves primitives at 0)', () => {
    expect(parseTriggerParam({ jobId: 1, logId: 2 })).toStrictEqual({
      jobId: 1,
      executorHandler: '',
      executorParams: '',
      executorBlockStrategy: 'SERIAL_EXECUTION',
      executorTimeout: 0,
      logId: 2,
      logDateTime: 0,
      glueType: 'BEAN',
      glueSource: '',
      glueUpdatetime: 0,
      broadcastIndex: 0,
      broadcastTotal: 0,
    });
  });

  it('takes an empty glueType or block strategy as the default, as the Java enum lookup falls back', () => {
    const t = parseTriggerParam({ jobId: 1, logId: 1, glueType: '', executorBlockStrategy: '' });
    expect(t.glueType).toBe('BEAN');
    expect(t.executorBlockStrategy).toBe('SERIAL_EXECUTION');
  });

  it('reads integers sent as numeric strings, as Gson reads an int or a long', () => {
    const t = parseTriggerParam({
      jobId: '1',
      logId: ' 7 ',
      logDateTime: String(G.LOG_DATE_TIME),
      executorTimeout: '30',
      broadcastIndex: '0',
      broadcastTotal: '-1',
    });
    expect([t.jobId, t.logId, t.logDateTime, t.executorTimeout, t.broadcastIndex, t.broadcastTotal]).toEqual([
      1,
      7,
      G.LOG_DATE_TIME,
      30,
      0,
      -1,
    ]);
  });

  it('keeps the largest safe integer a long can carry to JS', () => {
    const t = parseTriggerParam(withField(G.TRIGGER_PARAM_DOC, 'logId', '9007199254740991'));
    expect(t.logId).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('accepts the ≤ 3.4 spelling logDateTim as a fallback; logDateTime wins when both are sent', () => {
    expect(parseTriggerParam({ jobId: 1, logId: 1, logDateTim: 5 }).logDateTime).toBe(5);
    expect(parseTriggerParam({ jobId: 1, logId: 1, logDateTim: 5, logDateTime: 6 }).logDateTime).toBe(6);
  });

  it('does not reject a good logDateTime for a bad value under the other spelling', () => {
    const t = parseTriggerParam({ jobId: 1, logId: 1, logDateTime: 6, logDateTim: 'garbage' });
    expect(t.logDateTime).toBe(6);
    expectRejects(() => parseTriggerParam({ jobId: 1, logId: 1, logDateTim: 'garbage' }), 'logDateTim');
  });

  it.each(['jobId', 'logId'])('requires %s', (field) => {
    expectRejects(
      () => parseTriggerParam(withoutField(G.TRIGGER_PARAM_DOC, field)),
      field,
      `${field} is required`,
    );
    expectRejects(() => parseTriggerParam(withField(G.TRIGGER_PARAM_DOC, field, 'null')), field);
    expectRejects(() => parseTriggerParam(withField(G.TRIGGER_PARAM_DOC, field, '""')), field);
  });

  const intFields = [
    'jobId',
    'executorTimeout',
    'logId',
    'logDateTime',
    'glueUpdatetime',
    'broadcastIndex',
    'broadcastTotal',
  ];
  it.each(intFields.flatMap((field) => NOT_INTEGERS.map((value) => [field, value])))(
    'rejects %s = %s naming the field',
    (field, value) => {
      expectRejects(
        () => parseTriggerParam(withField(G.TRIGGER_PARAM_DOC, field, value)),
        field,
        new RegExp(`^${field} must be an integer, got `),
      );
    },
  );

  const stringFields = [
    'executorHandler',
    'executorParams',
    'executorBlockStrategy',
    'glueType',
    'glueSource',
  ];
  it.each(stringFields.flatMap((field) => NOT_STRINGS.map((value) => [field, value])))(
    'rejects %s = %s naming the field',
    (field, value) => {
      expectRejects(
        () => parseTriggerParam(withField(G.TRIGGER_PARAM_DOC, field, value)),
        field,
        new RegExp(`^${field} must be a string, got `),
      );
    },
  );

  it.each(NOT_OBJECTS)('rejects the body %j naming it', (body) => {
    expectRejects(() => parseTriggerParam(body), 'TriggerParam', 'TriggerParam must be a JSON object');
  });

  it('cuts a huge bad value in the message (the executor echoes it back in its answer)', () => {
    const err = protocolErrorOf(() => parseTriggerParam({ jobId: 1, logId: 'x'.repeat(1_000_000) }));
    expect(err.field).toBe('logId');
    expect(err.message.length).toBeLessThan(120);
  });
});

// =====================================================================================================
describe('B.2 IdleBeatParam and KillParam', () => {
  it('parse {"jobId":int} and serialise back byte for byte', () => {
    const idle: IdleBeatParam = { jobId: 1 };
    const kill: KillParam = { jobId: 1 };
    expect(parseJobIdParam(JSON.parse(G.IDLE_BEAT_PARAM))).toStrictEqual(idle);
    expect(parseJobIdParam(JSON.parse(G.KILL_PARAM))).toStrictEqual(kill);
    expect(JSON.stringify(idle)).toBe(G.IDLE_BEAT_PARAM);
    expect(JSON.stringify(kill)).toBe(G.KILL_PARAM);
    expect(JSON.stringify(parseJobIdParam(JSON.parse(G.KILL_PARAM)))).toBe(G.KILL_PARAM);
  });

  it('reads a numeric string jobId', () => {
    expect(parseJobIdParam({ jobId: '12' })).toStrictEqual({ jobId: 12 });
  });

  it('requires jobId', () => {
    expectRejects(() => parseJobIdParam({}), 'jobId', 'jobId is required');
    expectRejects(() => parseJobIdParam({ jobId: null }), 'jobId', 'jobId is required');
  });

  it.each(NOT_INTEGERS)('rejects jobId = %s naming it', (value) => {
    expectRejects(() => parseJobIdParam(withField(G.KILL_PARAM, 'jobId', value)), 'jobId');
  });

  it.each(NOT_OBJECTS)('rejects the body %j', (body) => {
    expectRejects(() => parseJobIdParam(body), 'body', 'body must be a JSON object');
  });
});

// =====================================================================================================
describe('B.2 LogParam (logDateTim, 2.x–3.4) and B.6 LogRequest (logDateTime, 3.5)', () => {
  const value: LogParam = { logDateTim: G.LOG_DATE_TIME, logId: 1, fromLineNum: 1 };

  it('parses the 2.x–3.4 LogParam', () => {
    expect(parseLogParam(JSON.parse(G.LOG_PARAM))).toStrictEqual(value);
  });

  it('parses the 3.5 LogRequest to the same value', () => {
    expect(parseLogParam(JSON.parse(G.LOG_REQUEST_35))).toStrictEqual(value);
  });

  it('serialises as LogParam byte for byte (logDateTim, logId, fromLineNum)', () => {
    expect(JSON.stringify(value)).toBe(G.LOG_PARAM);
    expect(JSON.stringify(parseLogParam(JSON.parse(G.LOG_PARAM)))).toBe(G.LOG_PARAM);
    expect(JSON.stringify(parseLogParam(JSON.parse(G.LOG_REQUEST_35)))).toBe(G.LOG_PARAM);
  });

  it('can carry both spellings for any executor generation: the B.2 bytes, then logDateTime', () => {
    const both: LogParam = { ...value, logDateTime: G.LOG_DATE_TIME };
    const json = JSON.stringify(both);
    expect(json).toBe(`${G.LOG_PARAM.slice(0, -1)},"logDateTime":${G.LOG_DATE_TIME}}`);
    // A ≤ 3.4 executor reads logDateTim, a 3.5 one logDateTime: each finds the trigger's date.
    const body = JSON.parse(json) as Record<string, unknown>;
    expect(body.logDateTim).toBe(G.LOG_DATE_TIME);
    expect(body.logDateTime).toBe(G.LOG_DATE_TIME);
    expect(parseLogParam(body)).toStrictEqual(value);
  });

  it('prefers logDateTim when both spellings are sent, and ignores a bad value under the unused one', () => {
    expect(parseLogParam({ logDateTim: 5, logDateTime: 6, logId: 1 }).logDateTim).toBe(5);
    expect(parseLogParam({ logDateTim: 5, logDateTime: 'x', logId: 1 }).logDateTim).toBe(5);
    expect(parseLogParam({ logDateTim: null, logDateTime: 6, logId: 1 }).logDateTim).toBe(6);
  });

  it('defaults an absent date to 0 and an absent fromLineNum to line 1', () => {
    expect(parseLogParam({ logId: 3 })).toStrictEqual({ logDateTim: 0, logId: 3, fromLineNum: 1 });
  });

  it('requires logId (it names the log file)', () => {
    expectRejects(() => parseLogParam(withoutField(G.LOG_PARAM, 'logId')), 'logId', 'logId is required');
    expectRejects(() => parseLogParam(withField(G.LOG_PARAM, 'logId', '"../../etc/passwd"')), 'logId');
  });

  it.each(
    [
      [G.LOG_PARAM, 'logDateTim'],
      [G.LOG_PARAM, 'logId'],
      [G.LOG_PARAM, 'fromLineNum'],
      [G.LOG_REQUEST_35, 'logDateTime'],
    ].flatMap(([json, field]) => NOT_INTEGERS.map((v) => [json as string, field as string, v])),
  )('rejects (%s) %s = %s naming the field', (json, field, v) => {
    expectRejects(() => parseLogParam(withField(json, field, v)), field);
  });

  it.each(NOT_OBJECTS)('rejects the body %j', (body) => {
    expectRejects(() => parseLogParam(body), 'LogParam', 'LogParam must be a JSON object');
  });
});

// =====================================================================================================
describe('B.2 LogResult and B.6 LogData (isEnd)', () => {
  const value: LogResult = {
    fromLineNum: 1,
    toLineNum: 2,
    logContent: '2020-04-12 02:16:43 [demoJobHandler] start\n2020-04-12 02:16:43 [demoJobHandler] end\n',
    isEnd: false,
  };

  it('parses a LogResult and serialises it back byte for byte (Gson field name isEnd)', () => {
    expect(parseLogResult(JSON.parse(G.LOG_RESULT))).toStrictEqual(value);
    expect(JSON.stringify(value)).toBe(G.LOG_RESULT);
    expect(JSON.stringify(parseLogResult(JSON.parse(G.LOG_RESULT)))).toBe(G.LOG_RESULT);
  });

  it('parses the 3.5 LogData the same way', () => {
    const data: LogResult = { fromLineNum: 3, toLineNum: 3, logContent: 'done\n', isEnd: false };
    expect(parseLogResult(JSON.parse(G.LOG_DATA_35))).toStrictEqual(data);
    expect(JSON.stringify(data)).toBe(G.LOG_DATA_35);
  });

  it('reads the "file not found" answer: logContent null (omitted) and isEnd true', () => {
    expect(parseLogResult(JSON.parse(G.LOG_RESULT_END))).toStrictEqual({
      fromLineNum: 0,
      toLineNum: 0,
      logContent: '',
      isEnd: true,
    });
  });

  it('takes an absent or null isEnd as false', () => {
    expect(parseLogResult({ fromLineNum: 1, toLineNum: 0, logContent: '' }).isEnd).toBe(false);
    expect(parseLogResult({ fromLineNum: 1, toLineNum: 0, logContent: '', isEnd: null }).isEnd).toBe(false);
  });

  it.each(['"true"', '"false"', '1', '0', '{}', '[]'])('rejects isEnd = %s naming it', (v) => {
    expectRejects(() => parseLogResult(withField(G.LOG_RESULT, 'isEnd', v)), 'isEnd');
  });

  it.each(['fromLineNum', 'toLineNum'].flatMap((field) => NOT_INTEGERS.map((v) => [field, v])))(
    'rejects %s = %s naming it',
    (field, v) => {
      expectRejects(() => parseLogResult(withField(G.LOG_RESULT, field, v)), field);
    },
  );

  it.each(NOT_STRINGS)('rejects logContent = %s naming it', (v) => {
    expectRejects(() => parseLogResult(withField(G.LOG_RESULT, 'logContent', v)), 'logContent');
  });

  it.each(NOT_OBJECTS)('rejects the body %j', (body) => {
    expectRejects(() => parseLogResult(body), 'LogResult', 'LogResult must be a JSON object');
  });
});

// =====================================================================================================
describe('B.0 / B.1 response envelope: ReturnT {code,msg,content} ≤ 3.2, Response {code,msg,data} ≥ 3.3', () => {
  it('reads the /beat answer {"code":200} and writes it back exactly', () => {
    const beat: ReturnT = { code: SUCCESS_CODE };
    expect(JSON.stringify(beat)).toBe(G.BEAT_ANSWER);
    const read = readReturnT(JSON.parse(G.BEAT_ANSWER));
    expect(read).toStrictEqual({ code: 200 });
    expect(JSON.stringify(read)).toBe(G.BEAT_ANSWER);
    expect(payloadOf(read)).toBeUndefined();
  });

  it('reads a ≤ 3.2 ReturnT<LogResult> (content) and writes it back byte for byte', () => {
    const read = readReturnT(JSON.parse(G.RETURN_T_LOG_RESULT));
    expect(JSON.stringify(read)).toBe(G.RETURN_T_LOG_RESULT);
    expect(parseLogResult(payloadOf(read))).toStrictEqual(parseLogResult(JSON.parse(G.LOG_RESULT)));
    const typed: ReturnT<LogResult> = { code: 200, content: parseLogResult(JSON.parse(G.LOG_RESULT)) };
    expect(JSON.stringify(typed)).toBe(G.RETURN_T_LOG_RESULT);
  });

  it('reads a ≥ 3.3 Response<LogData> (data), moving the payload to content', () => {
    const raw = JSON.parse(G.RESPONSE_LOG_DATA) as ReturnT<unknown>;
    expect(payloadOf(raw)).toStrictEqual(JSON.parse(G.LOG_DATA_35));
    const read = readReturnT(raw);
    expect(read).toStrictEqual({ code: 200, msg: 'success', content: JSON.parse(G.LOG_DATA_35) });
    expect(payloadOf(read)).toStrictEqual(payloadOf(raw));
    const typed: ReturnT<LogResult> = {
      code: 200,
      msg: 'success',
      data: { fromLineNum: 3, toLineNum: 3, logContent: 'done\n', isEnd: false },
    };
    expect(JSON.stringify(typed)).toBe(G.RESPONSE_LOG_DATA);
  });

  it('reads the 3.5 addJob answer, whose data is the new id as a string', () => {
    expect(payloadOf(readReturnT(JSON.parse(G.ADD_JOB_ANSWER_35)))).toBe('42');
    expect(JSON.stringify({ code: 200, data: '42' } satisfies ReturnT)).toBe(G.ADD_JOB_ANSWER_35);
  });

  it.each([
    ['"XXL-JOB 3.5" uri-mapping(/run)', G.URI_NOT_FOUND_RUN_35, MSG.uriNotFound('/run')],
    ['B.0 HttpMethod not support', G.METHOD_NOT_SUPPORTED, MSG.methodNotSupported],
    ['B.0 access token is wrong', G.WRONG_TOKEN, MSG.wrongToken],
    ['B.3 Illegal Argument', G.ILLEGAL_ARGUMENT, MSG.illegalArgument],
    ['B.2 idleBeat busy', G.IDLE_BEAT_BUSY_ANSWER, MSG.idleBeatBusy],
  ])('%s: {code: FAIL_CODE, msg: MSG.*} is the reference JSON byte for byte', (_name, json, msg) => {
    const failure: ReturnT = { code: FAIL_CODE, msg };
    expect(JSON.stringify(failure)).toBe(json);
    expect(readReturnT(JSON.parse(json))).toStrictEqual(failure);
    expect(JSON.stringify(readReturnT(JSON.parse(json)))).toBe(json);
  });

  it('prefers content to data, and falls back to data when content is null', () => {
    expect(payloadOf({ code: 200, content: 'c', data: 'd' })).toBe('c');
    expect(readReturnT({ code: 200, content: 'c', data: 'd' }).content).toBe('c');
    expect(readReturnT({ code: 200, content: null, data: 'd' }).content).toBe('d');
    expect(readReturnT({ code: 200, content: null, data: null })).toStrictEqual({ code: 200 });
  });

  it('keeps a falsy payload (0, "", false)', () => {
    expect(readReturnT({ code: 200, data: 0 }).content).toBe(0);
    expect(readReturnT({ code: 200, content: '' }).content).toBe('');
    expect(readReturnT({ code: 200, data: false }).content).toBe(false);
  });

  it('reads code and msg as Gson does: a numeric-string code, a number or boolean msg as its text', () => {
    expect(readReturnT({ code: '200' })).toStrictEqual({ code: 200 });
    expect(readReturnT({ code: 500, msg: 5 })).toStrictEqual({ code: 500, msg: '5' });
    expect(readReturnT({ code: 500, msg: false })).toStrictEqual({ code: 500, msg: 'false' });
    expect(readReturnT({ code: 500, msg: null })).toStrictEqual({ code: 500 });
  });

  it.each(NOT_OBJECTS)('rejects the body %j', (body) => {
    expectRejects(() => readReturnT(body), 'body', 'the response is not a ReturnT (a JSON object)');
  });

  it('rejects an envelope without a code', () => {
    expectRejects(() => readReturnT({ msg: 'no code here' }), 'code', 'the response has no code');
    expectRejects(() => readReturnT({ code: null, data: 1 }), 'code', 'the response has no code');
  });

  it.each(NOT_INTEGERS)('rejects code = %s naming it', (v) => {
    expectRejects(() => readReturnT(withField(G.BEAT_ANSWER, 'code', v)), 'code');
  });

  it.each(['{}', '[]', '["a"]'])('rejects msg = %s naming it (Gson cannot read it as a String)', (v) => {
    expectRejects(() => readReturnT(withField(G.WRONG_TOKEN, 'msg', v)), 'msg');
  });
});

// =====================================================================================================
describe('B.3 / B.6 callbacks: bare array (2.3–3.4), executeResult (2.2), {callbackList} (3.5)', () => {
  const results: CallbackResult[] = [
    { logId: 1, logDateTime: 1586629003729, handleCode: 200, handleMsg: 'ok' },
    { logId: 2, logDateTime: 1586629003730, handleCode: 500, handleMsg: 'job handler [x] not found.' },
    { logId: 3, logDateTime: 1586629003731, handleCode: 502, handleMsg: 'job execute timeout' },
  ];

  it('parses the 2.3–3.4 bare array of HandleCallbackParam', () => {
    expect(parseCallbackRequest(JSON.parse(G.CALLBACK_BARE_ARRAY))).toStrictEqual(results);
  });

  it('serialises HandleCallbackParam[] to the bare array byte for byte (logId, logDateTim, handleCode, handleMsg)', () => {
    const body: HandleCallbackParam[] = [
      { logId: 1, logDateTim: 1586629003729, handleCode: HANDLE_CODE.success, handleMsg: 'ok' },
      {
        logId: 2,
        logDateTim: 1586629003730,
        handleCode: HANDLE_CODE.fail,
        handleMsg: MSG.handlerNotFound('x'),
      },
      { logId: 3, logDateTim: 1586629003731, handleCode: HANDLE_CODE.timeout, handleMsg: MSG.timeout },
    ];
    expect(JSON.stringify(body)).toBe(G.CALLBACK_BARE_ARRAY);
  });

  it('reads a handleMsg that Gson omitted (null) as "", and omits an absent handleMsg when writing', () => {
    expect(parseCallbackRequest(JSON.parse(G.CALLBACK_BARE_ARRAY_NO_MSG))).toStrictEqual([
      { logId: 1, logDateTime: 1586629003729, handleCode: 200, handleMsg: '' },
    ]);
    const body: HandleCallbackParam[] = [{ logId: 1, logDateTim: 1586629003729, handleCode: 200 }];
    expect(JSON.stringify(body)).toBe(G.CALLBACK_BARE_ARRAY_NO_MSG);
  });

  it('parses the 2.2 shape, taking handleCode and handleMsg from executeResult', () => {
    expect(parseCallbackRequest(JSON.parse(G.CALLBACK_V22))).toStrictEqual([
      { logId: 1, logDateTime: 1586629003729, handleCode: 200, handleMsg: 'ok' },
      { logId: 2, logDateTime: 1586629003730, handleCode: 500, handleMsg: '' },
    ]);
  });

  it('prefers a top-level handleCode to a 2.2 executeResult, and uses executeResult when handleCode is null', () => {
    expect(
      parseCallbackRequest([{ logId: 1, handleCode: 502, executeResult: { code: 200 } }])[0]?.handleCode,
    ).toBe(502);
    expect(
      parseCallbackRequest([{ logId: 1, handleCode: null, executeResult: { code: 500, msg: 'm' } }]),
    ).toStrictEqual([{ logId: 1, logDateTime: 0, handleCode: 500, handleMsg: 'm' }]);
  });

  it('parses the 3.5 {"callbackList": [...]} with logDateTime (B.6)', () => {
    expect(parseCallbackRequest(JSON.parse(G.CALLBACK_35_LOG_DATE_TIME))).toStrictEqual([results[0]]);
  });

  it('parses the 3.5 {"callbackList": [...]} with logDateTim ("XXL-JOB 3.5" section)', () => {
    expect(parseCallbackRequest(JSON.parse(G.CALLBACK_35_LOG_DATE_TIM))).toStrictEqual([results[0]]);
  });

  it('serialises a CallbackRequest to the 3.5 body byte for byte', () => {
    const body: CallbackRequest = {
      callbackList: [{ logId: 1, logDateTime: 1586629003729, handleCode: 200, handleMsg: 'ok' }],
    };
    expect(JSON.stringify(body)).toBe(G.CALLBACK_35_LOG_DATE_TIME);
  });

  it('reads an empty batch in either shape as no results', () => {
    expect(parseCallbackRequest([])).toStrictEqual([]);
    expect(parseCallbackRequest({ callbackList: [] })).toStrictEqual([]);
  });

  it('reads integers sent as numeric strings, and an absent date as 0', () => {
    expect(parseCallbackRequest([{ logId: '7', handleCode: '200' }])).toStrictEqual([
      { logId: 7, logDateTime: 0, handleCode: 200, handleMsg: '' },
    ]);
  });

  it('uses logDateTim when both spellings are sent, and ignores a bad value under the unused one', () => {
    const [a] = parseCallbackRequest([{ logId: 1, logDateTim: 5, logDateTime: 'bad', handleCode: 200 }]);
    expect(a?.logDateTime).toBe(5);
    const [b] = parseCallbackRequest([{ logId: 1, logDateTim: null, logDateTime: 6, handleCode: 200 }]);
    expect(b?.logDateTime).toBe(6);
  });

  it('keeps a non-string handleMsg as its JSON (a lenient reading of what Gson would coerce)', () => {
    expect(parseCallbackRequest([{ logId: 1, handleCode: 500, handleMsg: 42 }])[0]?.handleMsg).toBe('42');
    expect(parseCallbackRequest([{ logId: 1, handleCode: 500, handleMsg: { a: 1 } }])[0]?.handleMsg).toBe(
      '{"a":1}',
    );
  });

  it.each([null, undefined, 'x', '[]', 0, true, {}, { list: [] }])(
    'rejects the body %j naming it',
    (body) => {
      expectRejects(() => parseCallbackRequest(body), 'body');
    },
  );

  it.each(['null', '{}', '"[]"', '5', 'true'])('rejects {"callbackList": %s} naming callbackList', (v) => {
    expectRejects(() => parseCallbackRequest(JSON.parse(`{"callbackList":${v}}`)), 'callbackList');
  });

  it.each(['null', '[]', '"x"', '5', 'true'])('rejects an item %s naming its index', (v) => {
    expectRejects(
      () => parseCallbackRequest(JSON.parse(`[${v}]`)),
      'callbackList[0]',
      'callbackList[0] must be a JSON object',
    );
  });

  it.each(['0', '-1', '-0', '"0"', '"-1"', '-9007199254740991'])(
    'rejects a zero or negative logId %s',
    (v) => {
      expectRejects(
        () => parseCallbackRequest(JSON.parse(`[{"logId":${v},"logDateTim":1,"handleCode":200}]`)),
        'callbackList[0].logId',
        'callbackList[0].logId must be a positive integer',
      );
    },
  );

  it.each(NOT_INTEGERS)('rejects logId = %s naming it', (v) => {
    expectRejects(
      () => parseCallbackRequest(JSON.parse(`{"callbackList":[{"logId":${v},"handleCode":200}]}`)),
      'callbackList[0].logId',
    );
  });

  it('requires logId and handleCode', () => {
    expectRejects(
      () => parseCallbackRequest([{ logDateTim: 1, handleCode: 200 }]),
      'callbackList[0].logId',
      'callbackList[0].logId is required',
    );
    expectRejects(
      () => parseCallbackRequest([{ logId: 1, logDateTim: 1 }]),
      'callbackList[0].handleCode',
      'callbackList[0].handleCode is required',
    );
    expectRejects(() => parseCallbackRequest([{ logId: 1, handleCode: null }]), 'callbackList[0].handleCode');
  });

  it.each(NOT_INTEGERS)('rejects handleCode, logDateTim and logDateTime = %s naming each', (v) => {
    for (const field of ['handleCode', 'logDateTim', 'logDateTime']) {
      expectRejects(
        () => parseCallbackRequest(JSON.parse(`[{"logId":1,"handleCode":200,"${field}":${v}}]`)),
        `callbackList[0].${field}`,
      );
    }
  });

  it.each(['null', '"x"', '1.5', '{}', 'true'])('rejects a 2.2 executeResult.code = %s naming it', (v) => {
    expectRejects(
      () => parseCallbackRequest(JSON.parse(`[{"logId":1,"logDateTim":1,"executeResult":{"code":${v}}}]`)),
      'callbackList[0].executeResult.code',
    );
  });

  it.each(['null', '[]', '"x"', '200'])('asks for handleCode when executeResult is %s', (v) => {
    expectRejects(
      () => parseCallbackRequest(JSON.parse(`[{"logId":1,"executeResult":${v}}]`)),
      'callbackList[0].handleCode',
    );
  });

  it('rejects the whole batch for one bad item, naming that item', () => {
    const batch = JSON.parse(G.CALLBACK_BARE_ARRAY) as Record<string, unknown>[];
    batch[2] = { ...batch[2], logId: -3 };
    expectRejects(() => parseCallbackRequest(batch), 'callbackList[2].logId');
  });
});

// =====================================================================================================
describe('B.3 RegistryParam (api/registry and api/registryRemove)', () => {
  it('parses the reference example verbatim and writes it the way Gson does (compact)', () => {
    const parsed = parseRegistryParam(JSON.parse(G.REGISTRY_PARAM_DOC));
    expect(parsed).toStrictEqual({
      registryGroup: 'EXECUTOR',
      registryKey: '<appname>',
      registryValue: 'http://ip:9999/',
    });
    expect(JSON.stringify(parsed)).toBe(G.REGISTRY_PARAM_DOC.replaceAll('", "', '","'));
  });

  it('round-trips a real registration byte for byte (registryGroup, registryKey, registryValue)', () => {
    const reg: RegistryParam = {
      registryGroup: 'EXECUTOR',
      registryKey: 'xxl-job-executor-sample',
      registryValue: 'http://127.0.0.1:9999/',
    };
    expect(JSON.stringify(reg)).toBe(G.REGISTRY_PARAM);
    expect(JSON.stringify(parseRegistryParam(JSON.parse(G.REGISTRY_PARAM)))).toBe(G.REGISTRY_PARAM);
  });

  it('trims the fields and keeps registryGroup as sent (RegistType EXECUTOR | ADMIN)', () => {
    expect(
      parseRegistryParam({ registryGroup: 'ADMIN', registryKey: ' app ', registryValue: ' http://h:9999/ ' }),
    ).toStrictEqual({ registryGroup: 'ADMIN', registryKey: 'app', registryValue: 'http://h:9999/' });
  });

  it.each(NOT_OBJECTS)('answers "Illegal Argument." to the body %j', (body) => {
    expectRejects(() => parseRegistryParam(body), 'body', MSG.illegalArgument);
  });

  it.each(
    ['registryGroup', 'registryKey', 'registryValue'].flatMap((field) =>
      ['null', '""', '"   "', '5', 'true', '{}', '[]', '["EXECUTOR"]'].map((v) => [field, v]),
    ),
  )('answers "Illegal Argument." to %s = %s, naming the field', (field, v) => {
    expectRejects(
      () => parseRegistryParam(withField(G.REGISTRY_PARAM, field, v)),
      field,
      MSG.illegalArgument,
    );
  });

  it.each(['registryGroup', 'registryKey', 'registryValue'])(
    'answers "Illegal Argument." to a missing %s',
    (f) => {
      expectRejects(() => parseRegistryParam(withoutField(G.REGISTRY_PARAM, f)), f, MSG.illegalArgument);
    },
  );

  it('rejects an over-long value naming the field', () => {
    expectRejects(
      () =>
        parseRegistryParam({ registryGroup: 'EXECUTOR', registryKey: 'k'.repeat(256), registryValue: 'v' }),
      'registryKey',
      /^Illegal Argument: registryKey is longer than 255 characters\.$/,
    );
  });
});

// =====================================================================================================
describe('messages, word for word (B.0, B.2, B.3, B.4, B.6, A, "XXL-JOB 3.5")', () => {
  it.each([
    ['wrongToken', MSG.wrongToken, 'The access token is wrong.'],
    ['tokenOrAppNameEmpty', MSG.tokenOrAppNameEmpty, 'invalid request, accessToken or appname is empty.'],
    ['tokenOrAppNameInvalid', MSG.tokenOrAppNameInvalid, 'invalid request, accessToken or appname invalid.'],
    ['methodNotSupported', MSG.methodNotSupported, 'invalid request, HttpMethod not support.'],
    ['uriNotFound(/run)', MSG.uriNotFound('/run'), 'invalid request, uri-mapping(/run) not found.'],
    [
      'uriNotFound(/trigger)',
      MSG.uriNotFound('/trigger'),
      'invalid request, uri-mapping(/trigger) not found.',
    ],
    ['bodyEmpty', MSG.bodyEmpty, 'requestBody empty.'],
    ['illegalArgument', MSG.illegalArgument, 'Illegal Argument.'],
    ['repeatCallback', MSG.repeatCallback, 'log repeate callback.'],
    ['discardLater', MSG.discardLater, 'block strategy effect：Discard Later'],
    ['idleBeatBusy', MSG.idleBeatBusy, 'job thread is running or has trigger queue.'],
    ['alreadyKilled', MSG.alreadyKilled, 'job thread already killed.'],
    [
      'runningKilled',
      MSG.runningKilled('scheduling center kill job.'),
      'scheduling center kill job. [job running, killed]',
    ],
    [
      'queuedKilled',
      MSG.queuedKilled('scheduling center kill job.'),
      'scheduling center kill job. [job not executed, in the job queue, killed.]',
    ],
    ['timeout', MSG.timeout, 'job execute timeout'],
    ['resultLost', MSG.resultLost, 'job handle result lost.'],
    ['repeatTrigger', MSG.repeatTrigger(7), 'repeate trigger job, logId:7'],
  ])('MSG.%s', (_name, actual, expected) => {
    expect(actual).toBe(expected);
  });

  it('uses the full-width colon U+FF1A in the block-strategy messages, as the Java source does', () => {
    expect(MSG.discardLater.codePointAt('block strategy effect'.length)).toBe(0xff1a);
    expect(MSG.coverEarly.codePointAt('block strategy effect'.length)).toBe(0xff1a);
  });
});

// =====================================================================================================
describe('headers (B.0, "XXL-JOB 3.5")', () => {
  it('names the token and app-name headers and the content types exactly', () => {
    expect(ACCESS_TOKEN_HEADER).toBe('XXL-JOB-ACCESS-TOKEN');
    expect(APPNAME_HEADER).toBe('XXL-JOB-APPNAME');
    expect(REQUEST_CONTENT_TYPE).toBe('application/json;charset=UTF-8');
    expect(EXECUTOR_RESPONSE_CONTENT_TYPE).toBe('text/html;charset=UTF-8');
  });
});

// =====================================================================================================
describe('paths (B.0, B.2, B.3, B.6, "XXL-JOB 3.5")', () => {
  it('lists the executor endpoints by their exact URI, /run and its 3.5 name /trigger', () => {
    expect(EXECUTOR_PATH).toStrictEqual({
      beat: '/beat',
      idleBeat: '/idleBeat',
      run: '/run',
      trigger: '/trigger',
      kill: '/kill',
      log: '/log',
    });
    expect(TRIGGER_PATHS).toStrictEqual(['/run', '/trigger']);
  });

  it('lists the admin API names callback, registry, registryRemove', () => {
    expect(ADMIN_API).toStrictEqual(['callback', 'registry', 'registryRemove']);
    for (const name of ADMIN_API) expect(isAdminApiName(name)).toBe(true);
    for (const name of ['addJob', 'Callback', 'registry/', '']) expect(isAdminApiName(name)).toBe(false);
  });

  it('knows the 2.x–3.4.0 context path /xxl-job-admin', () => {
    expect(LEGACY_ADMIN_CONTEXT_PATH).toBe('/xxl-job-admin');
  });

  it('builds {base}/api/{uri} for a legacy context path and for the root (3.4.1+)', () => {
    expect(adminApiUrl('http://host:8080/xxl-job-admin', 'callback')).toBe(
      'http://host:8080/xxl-job-admin/api/callback',
    );
    expect(adminApiUrl('http://host:8080/xxl-job-admin/', 'registry')).toBe(
      'http://host:8080/xxl-job-admin/api/registry',
    );
    expect(adminApiUrl('http://host:8080', 'registryRemove')).toBe('http://host:8080/api/registryRemove');
    expect(adminApiUrl('http://host:8080/', 'callback')).toBe('http://host:8080/api/callback');
  });

  it('reads the {uri} of /api/{uri} with or without the legacy context path', () => {
    expect(adminApiName('/api/callback')).toBe('callback');
    expect(adminApiName(`${LEGACY_ADMIN_CONTEXT_PATH}/api/registry`)).toBe('registry');
    expect(adminApiName('/xxl-job-admin/api/registryRemove')).toBe('registryRemove');
    expect(adminApiName('/api/addJob')).toBe('addJob');
    expect(adminApiName('/run')).toBe('run');
  });
});

// =====================================================================================================
describe('block strategies and glue types (A. Execution)', () => {
  it('lists ExecutorBlockStrategyEnum without the commented-out CONCURRENT_EXECUTION', () => {
    expect(BLOCK_STRATEGIES).toStrictEqual(['SERIAL_EXECUTION', 'DISCARD_LATER', 'COVER_EARLY']);
  });

  it('lists GlueTypeEnum in the reference order', () => {
    expect(GLUE_TYPES).toStrictEqual([
      'BEAN',
      'GLUE_GROOVY',
      'GLUE_SHELL',
      'GLUE_PYTHON',
      'GLUE_PYTHON2',
      'GLUE_NODEJS',
      'GLUE_POWERSHELL',
      'GLUE_PHP',
    ]);
  });

  it('runs each script type with the command and suffix the reference gives (3.2+ python3, 3.4.2+ pwsh)', () => {
    expect(GLUE_SCRIPT_TYPES).toStrictEqual({
      GLUE_SHELL: { command: 'bash', suffix: '.sh' },
      GLUE_PYTHON: { command: 'python3', suffix: '.py' },
      GLUE_PYTHON2: { command: 'python', suffix: '.py' },
      GLUE_NODEJS: { command: 'node', suffix: '.js' },
      GLUE_POWERSHELL: { command: 'pwsh', suffix: '.ps1' },
      GLUE_PHP: { command: 'php', suffix: '.php' },
    });
    expect(isGlueScriptType('GLUE_SHELL')).toBe(true);
    expect(isGlueScriptType('GLUE_GROOVY')).toBe(false);
    expect(isGlueScriptType('BEAN')).toBe(false);
    expect(isGlueScriptType('toString')).toBe(false);
  });
});

// =====================================================================================================
describe('codes and limits (B.1, C)', () => {
  it('has envelope codes 200/500 and handle codes 200/500/502', () => {
    expect(SUCCESS_CODE).toBe(200);
    expect(FAIL_CODE).toBe(500);
    expect(HANDLE_CODE).toStrictEqual({ success: 200, fail: 500, timeout: 502 });
  });

  it('cuts handleMsg at 50,000 characters plus "..." as JobThread does', () => {
    expect(MAX_HANDLE_MSG_LENGTH).toBe(50_000);
    const exact = 'a'.repeat(50_000);
    expect(truncateHandleMsg(exact)).toBe(exact);
    expect(truncateHandleMsg(`${exact}b`)).toBe(`${exact}...`);
    expect(truncateHandleMsg(`${exact}b`)?.length).toBe(50_003);
    expect(truncateHandleMsg('')).toBe('');
    expect(truncateHandleMsg(undefined)).toBeUndefined();
  });

  it('counts UTF-16 code units, as Java String.length() does', () => {
    const emoji = '😀'; // two UTF-16 code units
    const msg = emoji.repeat(25_000); // 50,000 units: not cut
    expect(truncateHandleMsg(msg)).toBe(msg);
    expect(truncateHandleMsg(`${msg}x`)).toBe(`${msg}...`);
  });
});

// =====================================================================================================
describe('hostile input never escapes as anything but a ProtocolError', () => {
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  const weird: unknown[] = [
    null,
    undefined,
    0,
    -0,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    2 ** 53,
    -(2 ** 63),
    1e308,
    '',
    ' ',
    '0',
    '-1',
    'null',
    'x'.repeat(10_000),
    true,
    false,
    [],
    [null],
    [[]],
    {},
    { callbackList: null },
    Object.create(null),
    cyclic,
    10n,
    Symbol('s'),
    () => 1,
    new Date(0),
  ];
  const fields = [
    'jobId',
    'logId',
    'logDateTim',
    'logDateTime',
    'executorHandler',
    'executorParams',
    'executorBlockStrategy',
    'executorTimeout',
    'glueType',
    'glueSource',
    'glueUpdatetime',
    'broadcastIndex',
    'broadcastTotal',
    'fromLineNum',
    'toLineNum',
    'logContent',
    'isEnd',
    'handleCode',
    'handleMsg',
    'executeResult',
    'registryGroup',
    'registryKey',
    'registryValue',
    'code',
    'msg',
    'content',
    'data',
  ];
  const parsers: [string, (raw: unknown) => unknown][] = [
    ['parseTriggerParam', parseTriggerParam],
    ['parseJobIdParam', parseJobIdParam],
    ['parseLogParam', parseLogParam],
    ['parseLogResult', parseLogResult],
    ['parseRegistryParam', parseRegistryParam],
    ['readReturnT', readReturnT],
    ['parseCallbackRequest', parseCallbackRequest],
    ['parseCallbackRequest (item)', (raw) => parseCallbackRequest([raw])],
    ['parseCallbackRequest (callbackList item)', (raw) => parseCallbackRequest({ callbackList: [raw] })],
  ];
  const valid: Record<string, unknown> = {
    ...(JSON.parse(G.TRIGGER_PARAM_DOC) as Record<string, unknown>),
    ...(JSON.parse(G.LOG_RESULT) as Record<string, unknown>),
    ...(JSON.parse(G.REGISTRY_PARAM) as Record<string, unknown>),
    logDateTim: G.LOG_DATE_TIME,
    handleCode: 200,
    handleMsg: 'ok',
    code: 200,
  };

  function settle(parse: (raw: unknown) => unknown, raw: unknown): 'ok' | 'ProtocolError' {
    try {
      parse(raw);
      return 'ok';
    } catch (err) {
      if (err instanceof ProtocolError) return 'ProtocolError';
      throw err;
    }
  }

  it.each(parsers)('%s: any body, and any value in any field of a valid body', (_name, parse) => {
    for (const body of weird) settle(parse, body);
    for (const field of fields) {
      for (const value of weird) {
        expect(['ok', 'ProtocolError']).toContain(settle(parse, { ...valid, [field]: value }));
      }
    }
  });

  it('names the field of a BigInt, a cyclic object or a symbol without failing to describe it', () => {
    expectRejects(
      () => parseTriggerParam({ jobId: 10n, logId: 1 }),
      'jobId',
      'jobId must be an integer, got 10n',
    );
    expectRejects(
      () => parseTriggerParam({ jobId: 1, logId: cyclic }),
      'logId',
      /^logId must be an integer, got /,
    );
    expectRejects(
      () => parseTriggerParam({ jobId: 1, logId: 1, glueSource: Symbol('s') }),
      'glueSource',
      'glueSource must be a string, got Symbol(s)',
    );
    expectRejects(() => readReturnT({ code: 200, msg: cyclic }), 'msg');
    expect(parseCallbackRequest([{ logId: 1, handleCode: 200, handleMsg: cyclic }])[0]?.handleMsg).toBe(
      '[object Object]',
    );
  });
});
