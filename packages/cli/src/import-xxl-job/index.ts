/**
 * `tickring import xxl-job <dump.sql>`: the library behind it. Read a MySQL dump of XXL-JOB's
 * `xxl_job_group` and `xxl_job_info` ({@link parseDump} / {@link readDump}), plan the import against
 * what tickring has ({@link planImport}: nothing is created twice), then either report the plan
 * (`--dry-run`: {@link planReport}) or carry it out ({@link applyImport}); {@link formatReport}
 * renders either report for people, and the report itself is JSON for `--json`.
 *
 * @example
 * ```ts
 * const dump = await readDump(createReadStream('xxl_job.sql'));
 * const plan = planImport(dump, { groups: await api.listGroups(), jobs: await api.listAllJobs() }, { timeZone: 'Asia/Shanghai' });
 * const report = dryRun ? planReport(plan) : await applyImport(plan, target);
 * process.stdout.write(json ? JSON.stringify(report, null, 2) : formatReport(report));
 * ```
 */
export { type ApplyOptions, type ApplyProgress, applyImport, type ImportTarget } from './apply.js';
export { DEFAULT_AUTHOR, normalizeExecutorAddress } from './map.js';
export {
  createDumpReader,
  DumpParseError,
  type DumpReader,
  type DumpRow,
  type DumpTable,
  type ParsedDump,
  parseDump,
  readDump,
  type SqlExpression,
  type SqlValue,
} from './parse-dump.js';
export {
  type ImportPlan,
  jobIdentity,
  type PlanAction,
  type PlannedGroup,
  type PlannedJob,
  type PlannedLink,
  type PlanOptions,
  planImport,
  type SourceSummary,
} from './plan.js';
export {
  formatReport,
  type GroupReport,
  type ImportReport,
  type ItemOutcome,
  type JobReport,
  type LinkOutcome,
  type LinkReport,
  planReport,
  type StartReport,
} from './report.js';
export * from './types.js';
