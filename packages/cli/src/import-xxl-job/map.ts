/**
 * One XXL-JOB row → the tickring body it becomes, with what had to change (`changes`: the body says
 * something other than the row) and what the user should know (`notes`), or why it cannot be imported
 * (`skipReason`). Pure and row by row; `plan.ts` joins jobs to their groups and children to jobs.
 */
import type { DumpRow, SqlValue } from './parse-dump.js';
import {
  APP_NAME_PATTERN,
  BLOCK_STRATEGIES,
  type BlockStrategy,
  GLUE_TYPES,
  type GlueType,
  type GroupBody,
  type JobBody,
  LIMITS,
  MISFIRE_STRATEGIES,
  type MisfireStrategy,
  ROUTE_STRATEGIES,
  type RouteStrategy,
  type ScheduleType,
} from './types.js';

/** The author given to a job whose author is empty (tickring requires one). */
export const DEFAULT_AUTHOR = 'xxl-job-import';

export interface MappedGroup {
  /** The row's `id`; null when it has none (jobs cannot name it then). */
  readonly xxlId: number | null;
  readonly line: number;
  /** The `app_name` as the dump has it. */
  readonly xxlAppName: string;
  /** The title as imported, or as the dump has it when the row is skipped. */
  readonly title: string;
  /** The body to create, when the row can be imported. */
  readonly body?: GroupBody;
  /** XXL-JOB 3.5's own group token, when it can be imported. Never put in a report. */
  readonly accessToken?: string;
  readonly skipReason?: string;
  readonly changes: readonly string[];
  readonly notes: readonly string[];
}

export type JobFields = Omit<JobBody, 'appName'>;

export interface MappedJob {
  readonly xxlId: number | null;
  readonly line: number;
  /** `job_group`: the XXL-JOB id of its group. */
  readonly xxlGroupId: number | null;
  /** The name as imported (or as the dump has it, when skipped). */
  readonly name: string;
  /** The body without its appName (which comes from the group), when the row can be imported. */
  readonly fields?: JobFields;
  /** `child_jobid`, as XXL-JOB ids. */
  readonly childXxlIds: readonly number[];
  /** `trigger_status` = 1. */
  readonly wasRunning: boolean;
  readonly skipReason?: string;
  readonly changes: readonly string[];
  readonly notes: readonly string[];
}

// ---------------------------------------------------------------------------------------------
// Groups

export function mapGroupRow(row: DumpRow): MappedGroup {
  const v = row.values;
  const changes: string[] = [];
  const notes: string[] = [];
  noteExpressions(
    v,
    ['id', 'app_name', 'title', 'name', 'address_type', 'address_list', 'access_token'],
    notes,
  );
  const xxlId = intOf(v.id);
  const xxlAppName = textOf(v.app_name) ?? '';
  // 3.5 calls the title `name`.
  const rawTitle = textOf(v.title) ?? textOf(v.name) ?? '';
  const base = { xxlId: xxlId ?? null, line: row.line, xxlAppName, title: rawTitle, changes, notes };
  if (xxlId === undefined) {
    return { ...base, skipReason: `it has no id, so no job can name it (id: ${show(v.id)})` };
  }
  const appName = xxlAppName.trim();
  if (appName !== xxlAppName) changes.push(`appName: spaces around ${JSON.stringify(xxlAppName)} removed`);
  if (
    appName.length < LIMITS.appNameMin ||
    appName.length > LIMITS.appName ||
    !APP_NAME_PATTERN.test(appName)
  ) {
    return {
      ...base,
      skipReason: `its appName ${JSON.stringify(appName)} is not one tickring accepts (${LIMITS.appNameMin}–${LIMITS.appName} letters, digits, '_', '.', '-'); executors register under their appName, so it cannot be renamed here: rename it (xxl.job.executor.appname and the group) and import again`,
    };
  }

  let title = rawTitle;
  if (title.trim() === '') {
    title = appName;
    changes.push(`title: empty in XXL-JOB; the appName is used`);
  } else if (title.length > LIMITS.groupTitle) {
    title = truncate(title, LIMITS.groupTitle);
    changes.push(`title: cut to ${LIMITS.groupTitle} characters (was ${rawTitle.length})`);
  }

  const typeNumber = intOf(v.address_type) ?? 0;
  const rawList = textOf(v.address_list) ?? '';
  const entries = rawList
    .split(',')
    .map((a) => a.trim())
    .filter((a) => a !== '');
  let addressType: GroupBody['addressType'];
  if (typeNumber === 0) addressType = 'AUTO';
  else {
    addressType = 'MANUAL';
    if (typeNumber !== 1) {
      changes.push(
        `addressType: address_type ${typeNumber} is neither 0 (automatic) nor 1 (manual); XXL-JOB refreshes only 0 from registrations, so it is taken as MANUAL`,
      );
    }
  }

  const accessToken = mapAccessToken(v.access_token, notes);
  const withToken = accessToken === undefined ? {} : { accessToken };

  if (addressType === 'AUTO') {
    if (entries.length > 0) {
      notes.push(
        `addressList: the ${entries.length} address(es) registered when the dump was made are not imported (${entries.join(', ')}); an AUTO group learns its addresses from its executors' registrations`,
      );
    }
    return { ...base, title, ...withToken, body: { appName, title, addressType } };
  }

  const addressList: string[] = [];
  for (const entry of entries) {
    const address = normalizeExecutorAddress(entry);
    if (address === undefined) {
      changes.push(`addressList: ${JSON.stringify(entry)} dropped: not an http(s) URL`);
    } else if (addressList.includes(address)) {
      changes.push(`addressList: ${address} listed twice; kept once`);
    } else if (addressList.length >= LIMITS.addressList) {
      changes.push(`addressList: ${address} dropped: tickring keeps at most ${LIMITS.addressList} addresses`);
    } else {
      addressList.push(address);
    }
  }
  if (addressList.length === 0) {
    changes.push(
      'addressType: MANUAL in XXL-JOB but without a usable address; imported as AUTO (executors that register fill it)',
    );
    return { ...base, title, ...withToken, body: { appName, title, addressType: 'AUTO' } };
  }
  return { ...base, title, ...withToken, body: { appName, title, addressType, addressList } };
}

const TOKEN_CHARS = /^[\x21-\x7E]+$/;

function mapAccessToken(value: SqlValue | undefined, notes: string[]): string | undefined {
  const token = textOf(value) ?? '';
  if (token === '') return undefined;
  if (
    token.length >= LIMITS.accessTokenMin &&
    token.length <= LIMITS.accessTokenMax &&
    TOKEN_CHARS.test(token)
  ) {
    return token;
  }
  notes.push(
    `access_token: its own access token (XXL-JOB 3.5) is not imported: tickring takes ${LIMITS.accessTokenMin}–${LIMITS.accessTokenMax} printable ASCII characters without spaces; give the group a new one (PUT /v1/groups/{appName}/access-token) and configure its executors with it`,
  );
  return undefined;
}

/**
 * An executor address as tickring keeps it (as the admin API's `normalizeExecutorAddress`): an
 * http(s) URL with a host, with the trailing `/` executor paths are appended to (XXL-JOB's executor
 * client adds it too), or `lambda:<function>` as it is; else undefined.
 */
export function normalizeExecutorAddress(text: string): string | undefined {
  if (text.length > LIMITS.address) return undefined;
  if (text.startsWith('lambda:')) return /^lambda:[A-Za-z0-9_.:-]+$/.test(text) ? text : undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') return undefined;
  return text.endsWith('/') ? text : `${text}/`;
}

// ---------------------------------------------------------------------------------------------
// Jobs

const READ_JOB_COLUMNS = [
  'id',
  'job_group',
  'job_desc',
  'name',
  'author',
  'alarm_email',
  'schedule_type',
  'schedule_conf',
  'job_cron',
  'misfire_strategy',
  'executor_route_strategy',
  'executor_handler',
  'executor_param',
  'executor_block_strategy',
  'executor_timeout',
  'executor_fail_retry_count',
  'glue_type',
  'glue_source',
  'child_jobid',
  'trigger_status',
];

export function mapJobRow(row: DumpRow, timeZone: string): MappedJob {
  const v = row.values;
  const changes: string[] = [];
  const notes: string[] = [];
  noteExpressions(v, READ_JOB_COLUMNS, notes);
  const xxlId = intOf(v.id);
  const xxlGroupId = intOf(v.job_group) ?? null;
  const wasRunning = intOf(v.trigger_status) === 1;
  // 3.5 calls the description `name`.
  const rawName = textOf(v.name) ?? textOf(v.job_desc) ?? '';
  const childXxlIds = mapChildren(v.child_jobid, changes);
  const base = { xxlId: xxlId ?? null, line: row.line, xxlGroupId, childXxlIds, wasRunning, changes, notes };
  const skip = (reason: string): MappedJob => ({ ...base, name: rawName, skipReason: reason });
  if (xxlId === undefined) return skip(`it has no id (id: ${show(v.id)})`);

  let name = rawName;
  if (name.trim() === '') {
    name = `XXL-JOB job ${xxlId}`;
    changes.push(`name: empty in XXL-JOB; named ${JSON.stringify(name)}`);
  } else if (name.length > LIMITS.name) {
    name = truncate(name, LIMITS.name);
    changes.push(`name: cut to ${LIMITS.name} characters (was ${rawName.length})`);
  }

  let author = textOf(v.author) ?? '';
  if (author.trim() === '') {
    author = DEFAULT_AUTHOR;
    changes.push(`author: empty in XXL-JOB; set to ${JSON.stringify(DEFAULT_AUTHOR)}`);
  } else if (author.length > LIMITS.author) {
    author = truncate(author, LIMITS.author);
    changes.push(`author: cut to ${LIMITS.author} characters`);
  }

  const alarmEmail = mapEmails(textOf(v.alarm_email) ?? '', changes);
  const schedule = mapSchedule(v, changes);
  if ('skip' in schedule) return { ...skip(schedule.skip), name };

  const misfireStrategy = mapEnum(
    'misfireStrategy',
    'misfire_strategy',
    v.misfire_strategy,
    MISFIRE_STRATEGIES,
    'DO_NOTHING',
    changes,
  ) as MisfireStrategy;
  const executorRouteStrategy = mapEnum(
    'executorRouteStrategy',
    'executor_route_strategy',
    v.executor_route_strategy,
    ROUTE_STRATEGIES,
    'FIRST',
    changes,
  ) as RouteStrategy;
  const executorBlockStrategy = mapEnum(
    'executorBlockStrategy',
    'executor_block_strategy',
    v.executor_block_strategy,
    BLOCK_STRATEGIES,
    'SERIAL_EXECUTION',
    changes,
  ) as BlockStrategy;

  const rawHandler = textOf(v.executor_handler) ?? '';
  const executorHandler = rawHandler.trim();
  if (executorHandler.length > LIMITS.executorHandler) {
    return {
      ...skip(
        `executor_handler is ${executorHandler.length} characters; tickring keeps at most ${LIMITS.executorHandler}`,
      ),
      name,
    };
  }
  if (executorHandler !== rawHandler && executorHandler !== '') {
    changes.push(`executorHandler: spaces around ${JSON.stringify(rawHandler)} removed`);
  }

  const executorParam = textOf(v.executor_param) ?? '';
  if (executorParam.length > LIMITS.executorParam) {
    return {
      ...skip(
        `executor_param is ${executorParam.length} characters; tickring keeps at most ${LIMITS.executorParam} (cutting it would change what the handler gets)`,
      ),
      name,
    };
  }

  const executorTimeout = mapCount('executorTimeout', 'executor_timeout', v.executor_timeout, changes);
  const executorFailRetryCount = mapCount(
    'executorFailRetryCount',
    'executor_fail_retry_count',
    v.executor_fail_retry_count,
    changes,
  );

  const rawGlueType = (textOf(v.glue_type) ?? '').trim();
  const glueType = (rawGlueType === '' ? 'BEAN' : rawGlueType.toUpperCase()) as GlueType;
  if (!GLUE_TYPES.includes(glueType)) {
    return {
      ...skip(`glue_type ${JSON.stringify(rawGlueType)} is not one tickring runs (${GLUE_TYPES.join(', ')})`),
      name,
    };
  }
  if (rawGlueType === '') changes.push('glueType: empty in XXL-JOB; BEAN');
  let glueSource = textOf(v.glue_source) ?? '';
  if (glueType === 'BEAN') {
    if (executorHandler === '') {
      return {
        ...skip(
          'it is a BEAN job without executor_handler (XXL-JOB refuses to save one, tickring to create one)',
        ),
        name,
      };
    }
    if (glueSource.length > LIMITS.glueSource) {
      changes.push(
        `glueSource: the ${glueSource.length} characters left from an earlier GLUE version dropped (a BEAN job does not use them; tickring keeps at most ${LIMITS.glueSource})`,
      );
      glueSource = '';
    }
  } else {
    if (glueSource.length > LIMITS.glueSource) {
      return {
        ...skip(
          `its GLUE source is ${glueSource.length} characters; tickring keeps at most ${LIMITS.glueSource}`,
        ),
        name,
      };
    }
    notes.push(
      `${glueType}: runs only on executors with GLUE enabled (@tickring/executor: enableGlue; XXL-JOB 3.5: xxl.job.executor.glueenabled)${glueType === 'GLUE_GROOVY' ? '; GLUE_GROOVY needs a Java executor' : ''}`,
    );
    if (glueSource.trim() === '') notes.push(`${glueType}: its GLUE source is empty`);
  }

  if (wasRunning) {
    notes.push(
      'RUNNING in XXL-JOB; imported STOPPED: start it once its executors are registered with tickring',
    );
  }

  const fields: JobFields = {
    name,
    author,
    alarmEmail,
    scheduleType: schedule.type,
    scheduleConf: schedule.conf,
    timeZone,
    misfireStrategy,
    executorRouteStrategy,
    executorHandler,
    executorParam,
    executorBlockStrategy,
    executorTimeout,
    executorFailRetryCount,
    glueType,
    glueSource,
    triggerStatus: 'STOPPED',
  };
  return { ...base, name, fields };
}

const EMAIL = /^[^\s@,;]+@[^\s@,;]+\.[^\s@,;]+$/;

/** alarm_email: addresses separated by commas (also ';', '，', spaces, which tickring does not take). */
function mapEmails(raw: string, changes: string[]): string {
  const entries = raw.split(/[,;，；\s]+/).filter((e) => e !== '');
  const kept: string[] = [];
  for (const email of entries) {
    if (!EMAIL.test(email)) {
      changes.push(`alarmEmail: ${JSON.stringify(email)} dropped: not an e-mail address`);
    } else if (kept.includes(email)) {
      // the same address twice: once is enough
    } else if ([...kept, email].join(',').length > LIMITS.alarmEmail) {
      changes.push(`alarmEmail: ${email} dropped: tickring keeps at most ${LIMITS.alarmEmail} characters`);
    } else {
      kept.push(email);
    }
  }
  const out = kept.join(',');
  const asGiven = raw
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '')
    .join(',');
  if (out !== asGiven && kept.length === entries.length) {
    changes.push(`alarmEmail: ${JSON.stringify(raw)} written as ${JSON.stringify(out)} (comma-separated)`);
  }
  return out;
}

type MappedSchedule = { type: ScheduleType; conf: string } | { skip: string };

function mapSchedule(v: Readonly<Record<string, SqlValue>>, changes: string[]): MappedSchedule {
  let rawType = textOf(v.schedule_type);
  let rawConf = textOf(v.schedule_conf) ?? '';
  if (rawType === undefined && !('schedule_type' in v) && 'job_cron' in v) {
    // XXL-JOB before 2.3: every job had a cron, in job_cron.
    rawType = 'CRON';
    rawConf = textOf(v.job_cron) ?? '';
  }
  const type = (rawType ?? '').trim().toUpperCase();
  const conf = rawConf.trim();
  if (conf !== rawConf && conf !== '')
    changes.push(`scheduleConf: spaces around ${JSON.stringify(rawConf)} removed`);
  if (conf.length > LIMITS.scheduleConf) {
    return {
      skip: `schedule_conf is ${conf.length} characters; tickring keeps at most ${LIMITS.scheduleConf}`,
    };
  }
  // tickring keeps no schedule text on a NONE job (a later partial edit of one would be refused).
  const none = (why: string): MappedSchedule => {
    changes.push(
      `scheduleType: ${why}; imported as NONE (manual, API and parent triggers only) without a schedule: set one before starting it`,
    );
    return { type: 'NONE', conf: '' };
  };
  switch (type) {
    case 'CRON': {
      const fields = conf.split(/\s+/).filter((f) => f !== '');
      if (fields.length < 6 || fields.length > 7) {
        return none(`the cron ${JSON.stringify(conf)} does not have the 6 or 7 fields of a Quartz cron`);
      }
      return { type: 'CRON', conf };
    }
    case 'FIX_RATE':
      if (!isSeconds(conf))
        return none(`FIX_RATE needs a whole number of seconds ≥ 1, not ${JSON.stringify(conf)}`);
      return { type: 'FIX_RATE', conf };
    case 'FIX_DELAY':
      // XXL-JOB names it but never implemented it (the enum value is commented out).
      if (!isSeconds(conf)) return none(`FIX_DELAY ${JSON.stringify(conf)} (never implemented by XXL-JOB)`);
      changes.push(
        `scheduleType: FIX_DELAY (named but never implemented by XXL-JOB, so it never fired there) imported as FIX_RATE every ${conf} s: tickring has no fixed delay; with SERIAL_EXECUTION or DISCARD_LATER runs do not overlap`,
      );
      return { type: 'FIX_RATE', conf };
    case '':
    case 'NONE':
      if (conf !== '') {
        changes.push(
          `scheduleConf: ${JSON.stringify(conf)} dropped: a NONE job has no schedule (XXL-JOB ignored it too)`,
        );
      }
      return { type: 'NONE', conf: '' };
    default:
      return none(
        `${JSON.stringify(rawType)} is not a schedule type tickring has (NONE, CRON, FIX_RATE, ONCE)`,
      );
  }
}

function isSeconds(conf: string): boolean {
  return /^[0-9]+$/.test(conf) && Number(conf) >= 1 && Number(conf) <= LIMITS.int;
}

function mapEnum(
  field: string,
  column: string,
  value: SqlValue | undefined,
  allowed: readonly string[],
  fallback: string,
  changes: string[],
): string {
  const raw = textOf(value);
  const name = (raw ?? '').trim().toUpperCase();
  if (allowed.includes(name)) return name;
  if (value === undefined) return fallback; // the column is not in this XXL-JOB version: its default
  changes.push(
    `${field}: ${raw === undefined || raw.trim() === '' ? `${column} is empty` : `${JSON.stringify(raw)} is not one of ${allowed.join(', ')}`}; ${fallback}`,
  );
  return fallback;
}

function mapCount(field: string, column: string, value: SqlValue | undefined, changes: string[]): number {
  if (value === undefined || value === null) return 0;
  const n = intOf(value);
  if (n === undefined) {
    changes.push(`${field}: ${column} ${show(value)} is not a whole number; 0`);
    return 0;
  }
  if (n < 0) {
    changes.push(`${field}: ${n} in XXL-JOB (which treats it as 0); 0`);
    return 0;
  }
  if (n > LIMITS.int) {
    changes.push(`${field}: ${n} is above ${LIMITS.int}; ${LIMITS.int}`);
    return LIMITS.int;
  }
  return n;
}

function mapChildren(value: SqlValue | undefined, changes: string[]): number[] {
  const ids: number[] = [];
  for (const entry of (textOf(value) ?? '').split(',')) {
    const text = entry.trim();
    if (text === '') continue;
    if (!/^[0-9]+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text))) {
      changes.push(`childJobIds: ${JSON.stringify(text)} in child_jobid is not a job id; dropped`);
      continue;
    }
    const id = Number(text);
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

// ---------------------------------------------------------------------------------------------
// Values

/** A string, a number written as text; undefined for NULL, an absent column or an expression. */
export function textOf(value: SqlValue | undefined): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return undefined;
}

/** An integer given as a number or as digits; undefined otherwise. */
export function intOf(value: SqlValue | undefined): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined;
  if (typeof value === 'string' && /^\s*-?[0-9]+\s*$/.test(value)) {
    const n = Number(value);
    return Number.isSafeInteger(n) ? n : undefined;
  }
  return undefined;
}

function show(value: SqlValue | undefined): string {
  if (value === undefined) return 'absent';
  if (value === null) return 'NULL';
  if (typeof value === 'object') return value.expr;
  return JSON.stringify(value);
}

function noteExpressions(
  values: Readonly<Record<string, SqlValue>>,
  columns: readonly string[],
  notes: string[],
) {
  for (const column of columns) {
    const value = values[column];
    if (value !== null && typeof value === 'object') {
      notes.push(
        `${column} is the SQL expression ${value.expr}, which the import does not evaluate; taken as empty`,
      );
    }
  }
}

/** At most `max` UTF-16 code units, without splitting a surrogate pair. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}
