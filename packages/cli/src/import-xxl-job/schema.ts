/**
 * The two XXL-JOB tables the import reads, as its versions define them (`doc/db/tables_xxl_job.sql`).
 * The column order matters only for an INSERT without a column list in a dump without its
 * CREATE TABLE; the known names decide which columns are reported as unknown.
 */

export const GROUP_TABLE = 'xxl_job_group';
export const JOB_TABLE = 'xxl_job_info';
export type XxlTable = typeof GROUP_TABLE | typeof JOB_TABLE;

/** xxl_job_group in 2.4.2 and 3.4.2 (the same six columns, in the same order). */
export const GROUP_COLUMNS_2_4_2 = [
  'id',
  'app_name',
  'title',
  'address_type',
  'address_list',
  'update_time',
] as const;
export const GROUP_COLUMNS_3_4_2 = GROUP_COLUMNS_2_4_2;

/** xxl_job_info in 2.4.2 and 3.4.2 (the same 24 columns, in the same order). */
export const JOB_COLUMNS_2_4_2 = [
  'id',
  'job_group',
  'job_desc',
  'add_time',
  'update_time',
  'author',
  'alarm_email',
  'schedule_type',
  'schedule_conf',
  'misfire_strategy',
  'executor_route_strategy',
  'executor_handler',
  'executor_param',
  'executor_block_strategy',
  'executor_timeout',
  'executor_fail_retry_count',
  'glue_type',
  'glue_source',
  'glue_remark',
  'glue_updatetime',
  'child_jobid',
  'trigger_status',
  'trigger_last_time',
  'trigger_next_time',
] as const;
export const JOB_COLUMNS_3_4_2 = JOB_COLUMNS_2_4_2;

/** The column sets assumed, by table and column count, when a dump does not say. */
export const ASSUMED_COLUMNS: Readonly<Record<XxlTable, readonly (readonly string[])[]>> = {
  [GROUP_TABLE]: [GROUP_COLUMNS_2_4_2],
  [JOB_TABLE]: [JOB_COLUMNS_2_4_2],
};
export const ASSUMED_VERSIONS = 'XXL-JOB 2.4.2 and 3.4.2 (both have these columns in this order)';

/**
 * Every column name XXL-JOB has used in these tables: 2.x–3.4 names, 3.5 (master) names (`name` for
 * the group's title and the job's description, the group's `access_token`) and older ones
 * (2.0–2.2: `order`, `job_cron`). Others are reported as unknown and ignored.
 */
export const KNOWN_COLUMNS: Readonly<Record<XxlTable, ReadonlySet<string>>> = {
  [GROUP_TABLE]: new Set([...GROUP_COLUMNS_2_4_2, 'name', 'access_token', 'order']),
  [JOB_TABLE]: new Set([...JOB_COLUMNS_2_4_2, 'name', 'job_cron']),
};
