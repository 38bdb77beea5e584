/**
 * For tests: dumps written as mysqldump 8 writes them (header, conditional comments, DROP/CREATE,
 * LOCK/UNLOCK, extended INSERTs, its string escaping), from rows given as plain values.
 */
import { readFileSync } from 'node:fs';
import { JOB_COLUMNS_2_4_2 } from '../schema.js';

/** The two sample files of XXL-JOB's repository (doc/db/tables_xxl_job.sql at 2.4.2 and 3.4.2), verbatim. */
export const SAMPLE_2_4_2 = readFileSync(
  new URL('./fixtures/tables_xxl_job-2.4.2.sql', import.meta.url),
  'utf8',
);
export const SAMPLE_3_4_2 = readFileSync(
  new URL('./fixtures/tables_xxl_job-3.4.2.sql', import.meta.url),
  'utf8',
);

export type Value = string | number | null;
export type Row = Readonly<Record<string, Value>>;

/** A value as mysqldump writes it: strings quoted, with \0 \n \r \\ \' \" \Z escaped. */
export function sql(value: Value): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number') return String(value);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: NUL and Ctrl-Z are what mysqldump escapes
  const escaped = value.replace(/[\0\n\r\\'"\x1a]/g, (c) => {
    switch (c) {
      case '\0':
        return '\\0';
      case '\n':
        return '\\n';
      case '\r':
        return '\\r';
      case '\x1a':
        return '\\Z';
      default:
        return `\\${c}`;
    }
  });
  return `'${escaped}'`;
}

export const GROUP_COLUMNS = ['id', 'app_name', 'title', 'address_type', 'address_list', 'update_time'];
export const JOB_COLUMNS: readonly string[] = JOB_COLUMNS_2_4_2;

export const CREATE_GROUP = `CREATE TABLE \`xxl_job_group\` (
  \`id\` int NOT NULL AUTO_INCREMENT,
  \`app_name\` varchar(64) NOT NULL COMMENT '执行器AppName',
  \`title\` varchar(64) NOT NULL COMMENT '执行器名称',
  \`address_type\` tinyint NOT NULL DEFAULT '0' COMMENT '执行器地址类型：0=自动注册、1=手动录入',
  \`address_list\` text COMMENT '执行器地址列表，多地址逗号分隔',
  \`update_time\` datetime DEFAULT NULL,
  PRIMARY KEY (\`id\`)
) ENGINE=InnoDB AUTO_INCREMENT=4 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;`;

export const CREATE_JOB = `CREATE TABLE \`xxl_job_info\` (
  \`id\` int NOT NULL AUTO_INCREMENT,
  \`job_group\` int NOT NULL COMMENT '执行器主键ID',
  \`job_desc\` varchar(255) NOT NULL,
  \`add_time\` datetime DEFAULT NULL,
  \`update_time\` datetime DEFAULT NULL,
  \`author\` varchar(64) DEFAULT NULL COMMENT '作者',
  \`alarm_email\` varchar(255) DEFAULT NULL COMMENT '报警邮件',
  \`schedule_type\` varchar(50) NOT NULL DEFAULT 'NONE' COMMENT '调度类型',
  \`schedule_conf\` varchar(128) DEFAULT NULL COMMENT '调度配置，值含义取决于调度类型',
  \`misfire_strategy\` varchar(50) NOT NULL DEFAULT 'DO_NOTHING' COMMENT '调度过期策略',
  \`executor_route_strategy\` varchar(50) DEFAULT NULL COMMENT '执行器路由策略',
  \`executor_handler\` varchar(255) DEFAULT NULL COMMENT '任务handler',
  \`executor_param\` text COMMENT '任务参数',
  \`executor_block_strategy\` varchar(50) DEFAULT NULL COMMENT '阻塞处理策略',
  \`executor_timeout\` int NOT NULL DEFAULT '0' COMMENT '任务执行超时时间，单位秒',
  \`executor_fail_retry_count\` int NOT NULL DEFAULT '0' COMMENT '失败重试次数',
  \`glue_type\` varchar(50) NOT NULL COMMENT 'GLUE类型',
  \`glue_source\` mediumtext COMMENT 'GLUE源代码',
  \`glue_remark\` varchar(128) DEFAULT NULL COMMENT 'GLUE备注',
  \`glue_updatetime\` datetime DEFAULT NULL COMMENT 'GLUE更新时间',
  \`child_jobid\` varchar(255) DEFAULT NULL COMMENT '子任务ID，多个逗号分隔',
  \`trigger_status\` tinyint NOT NULL DEFAULT '0' COMMENT '调度状态：0-停止，1-运行',
  \`trigger_last_time\` bigint NOT NULL DEFAULT '0' COMMENT '上次调度时间',
  \`trigger_next_time\` bigint NOT NULL DEFAULT '0' COMMENT '下次调度时间',
  PRIMARY KEY (\`id\`)
) ENGINE=InnoDB AUTO_INCREMENT=3 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;`;

export function groupRow(overrides: Row = {}): Row {
  return {
    id: 1,
    app_name: 'xxl-job-executor-sample',
    title: '示例执行器',
    address_type: 0,
    address_list: null,
    update_time: '2024-03-01 10:00:00',
    ...overrides,
  };
}

export function jobRow(overrides: Row = {}): Row {
  return {
    id: 1,
    job_group: 1,
    job_desc: '测试任务1',
    add_time: '2024-03-01 10:00:00',
    update_time: '2024-03-01 10:00:00',
    author: 'XXL',
    alarm_email: '',
    schedule_type: 'CRON',
    schedule_conf: '0 0 0 * * ? *',
    misfire_strategy: 'DO_NOTHING',
    executor_route_strategy: 'FIRST',
    executor_handler: 'demoJobHandler',
    executor_param: '',
    executor_block_strategy: 'SERIAL_EXECUTION',
    executor_timeout: 0,
    executor_fail_retry_count: 0,
    glue_type: 'BEAN',
    glue_source: '',
    glue_remark: 'GLUE代码初始化',
    glue_updatetime: '2024-03-01 10:00:00',
    child_jobid: '',
    trigger_status: 0,
    trigger_last_time: 0,
    trigger_next_time: 0,
    ...overrides,
  };
}

export interface InsertOptions {
  /** Name the columns (mysqldump --complete-insert); default: not. */
  readonly columnList?: boolean;
  /** Rows per INSERT (mysqldump's extended insert); default: all in one. */
  readonly rowsPerInsert?: number;
}

export function inserts(
  table: string,
  columns: readonly string[],
  rows: readonly Row[],
  options: InsertOptions = {},
) {
  if (rows.length === 0) return '';
  const per = options.rowsPerInsert ?? rows.length;
  const head = `INSERT INTO \`${table}\`${options.columnList ? ` (${columns.map((c) => `\`${c}\``).join(', ')})` : ''} VALUES `;
  const out: string[] = [];
  for (let i = 0; i < rows.length; i += per) {
    const values = rows
      .slice(i, i + per)
      .map((row) => `(${columns.map((c) => sql(row[c] ?? null)).join(',')})`)
      .join(',');
    out.push(`${head}${values};`);
  }
  return out.join('\n');
}

export interface DumpOptions extends InsertOptions {
  readonly groups?: readonly Row[];
  readonly jobs?: readonly Row[];
  /** Write the CREATE TABLE statements; default: yes. */
  readonly createTables?: boolean;
  readonly groupColumns?: readonly string[];
  readonly jobColumns?: readonly string[];
}

/** A dump of the two tables as `mysqldump xxl_job xxl_job_group xxl_job_info` writes it. */
export function mysqldump(options: DumpOptions): string {
  const groupColumns = options.groupColumns ?? GROUP_COLUMNS;
  const jobColumns = options.jobColumns ?? JOB_COLUMNS;
  const table = (
    name: string,
    create: string,
    columns: readonly string[],
    rows: readonly Row[] | undefined,
  ) => {
    if (rows === undefined) return '';
    return `--
-- Table structure for table \`${name}\`
--

DROP TABLE IF EXISTS \`${name}\`;
/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!50503 SET character_set_client = utf8mb4 */;
${options.createTables === false ? '' : create}
/*!40101 SET character_set_client = @saved_cs_client */;

--
-- Dumping data for table \`${name}\`
--

LOCK TABLES \`${name}\` WRITE;
/*!40000 ALTER TABLE \`${name}\` DISABLE KEYS */;
${inserts(name, columns, rows, options)}
/*!40000 ALTER TABLE \`${name}\` ENABLE KEYS */;
UNLOCK TABLES;
`;
  };
  return `-- MySQL dump 10.13  Distrib 8.0.36, for Linux (x86_64)
--
-- Host: localhost    Database: xxl_job
-- ------------------------------------------------------
-- Server version	8.0.36

/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;
/*!40101 SET @OLD_CHARACTER_SET_RESULTS=@@CHARACTER_SET_RESULTS */;
/*!40101 SET @OLD_COLLATION_CONNECTION=@@COLLATION_CONNECTION */;
/*!50503 SET NAMES utf8mb4 */;
/*!40103 SET @OLD_TIME_ZONE=@@TIME_ZONE */;
/*!40103 SET TIME_ZONE='+00:00' */;
/*!40014 SET @OLD_UNIQUE_CHECKS=@@UNIQUE_CHECKS, UNIQUE_CHECKS=0 */;
/*!40111 SET @OLD_SQL_NOTES=@@SQL_NOTES, SQL_NOTES=0 */;

${table('xxl_job_group', CREATE_GROUP, groupColumns, options.groups)}
${table('xxl_job_info', CREATE_JOB, jobColumns, options.jobs)}
/*!40103 SET TIME_ZONE=@OLD_TIME_ZONE */;
/*!40101 SET CHARACTER_SET_CLIENT=@OLD_CHARACTER_SET_CLIENT */;
/*!40111 SET SQL_NOTES=@OLD_SQL_NOTES */;

-- Dump completed on 2024-03-01 10:00:00
`;
}

/** A GLUE source with everything a splitter can trip on: quotes, `;`, `),(`, comments, newlines, CR, NUL. */
export const HOSTILE_SOURCE = [
  '#!/bin/bash',
  "echo 'it''s done; really' \"quoted\" `date`",
  "# ),( not a row ); DROP TABLE xxl_job_info; -- no ('x','y'),('z')",
  'echo "a\\\\b\\n" /* not a comment */ -- nor this',
  'printf "tab\there\r\nnul\0end \x1a"',
  "INSERT INTO `xxl_job_info` VALUES (99,1,'x');",
  '中文注释 😀',
  'exit 0',
  '',
].join('\n');
