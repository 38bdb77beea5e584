import { describe, expect, it } from 'vitest';
import { createDumpReader, DumpParseError, type ParsedDump, parseDump, readDump } from './parse-dump.js';
import { JOB_COLUMNS_2_4_2 } from './schema.js';
import {
  GROUP_COLUMNS,
  groupRow,
  HOSTILE_SOURCE,
  JOB_COLUMNS,
  jobRow,
  mysqldump,
  SAMPLE_2_4_2,
  SAMPLE_3_4_2,
} from './test-support/dumps.js';

/** The error a parse throws (fails the test when it does not throw one). */
function parseError(text: string): DumpParseError {
  try {
    parseDump(text);
  } catch (err) {
    if (err instanceof DumpParseError) return err;
    throw err;
  }
  throw new Error('parseDump did not throw');
}

describe('parseDump: the XXL-JOB sample files', () => {
  it('reads 2.4.2: columns from CREATE TABLE, one group, one job (no trigger_status column in the INSERT)', () => {
    const dump = parseDump(SAMPLE_2_4_2);
    expect(dump.notes).toEqual([]);
    expect(dump.lines).toBe(123);
    expect(dump.groups.columns).toEqual(GROUP_COLUMNS);
    expect(dump.jobs.columns).toEqual(JOB_COLUMNS);
    expect(dump.groups.rows).toEqual([
      {
        line: 116,
        values: {
          id: 1,
          app_name: 'xxl-job-executor-sample',
          title: '示例执行器',
          address_type: 0,
          address_list: null,
          update_time: '2018-11-03 22:21:31',
        },
      },
    ]);
    expect(dump.jobs.rows).toHaveLength(1);
    expect(dump.jobs.rows[0]).toEqual({
      line: 117,
      values: {
        id: 1,
        job_group: 1,
        job_desc: '测试任务1',
        add_time: '2018-11-03 22:21:31',
        update_time: '2018-11-03 22:21:31',
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
        glue_updatetime: '2018-11-03 22:21:31',
        child_jobid: '',
      },
    });
  });

  it('reads 3.4.2: statements over many lines, now() kept as an expression, JSON params with newlines', () => {
    const dump = parseDump(SAMPLE_3_4_2);
    expect(dump.notes).toEqual([]);
    expect(dump.groups.rows.map((r) => [r.line, r.values.id, r.values.app_name, r.values.title])).toEqual([
      [149, 1, 'xxl-job-executor-sample', '通用执行器Sample'],
      [150, 2, 'xxl-job-executor-sample-ai', 'AI执行器Sample'],
    ]);
    expect(dump.groups.rows[0]?.values.update_time).toEqual({ expr: 'now()' });
    expect(
      dump.jobs.rows.map((r) => [r.line, r.values.id, r.values.job_group, r.values.executor_handler]),
    ).toEqual([
      [157, 1, 1, 'demoJobHandler'],
      [160, 2, 2, 'ollamaJobHandler'],
      [167, 3, 2, 'difyWorkflowJobHandler'],
      [177, 4, 2, 'openClawJobHandler'],
    ]);
    expect(dump.jobs.rows[2]?.values.executor_param).toBe(
      '{\n    "inputs":{\n        "input":"查询班级各学科前三名"\n    },\n    "user": "xxl-job",\n    "baseUrl": "http://localhost/v1",\n    "apiKey": "app-OUVgNUOQRIMokfmuJvBJoUTN"\n}',
    );
  });
});

describe('parseDump: mysqldump output', () => {
  it('reads extended INSERTs between LOCK TABLES, skipping conditional comments and other statements', () => {
    const text = mysqldump({
      groups: [
        groupRow(),
        groupRow({ id: 2, app_name: 'billing', address_type: 1, address_list: 'http://a:9999' }),
      ],
      jobs: [jobRow(), jobRow({ id: 2, job_desc: 'two', child_jobid: '1' })],
    });
    const dump = parseDump(text);
    expect(dump.notes).toEqual([]);
    expect(dump.groups.rows.map((r) => r.values)).toEqual([
      groupRow(),
      groupRow({ id: 2, app_name: 'billing', address_type: 1, address_list: 'http://a:9999' }),
    ]);
    expect(dump.jobs.rows.map((r) => r.values)).toEqual([
      jobRow(),
      jobRow({ id: 2, job_desc: 'two', child_jobid: '1' }),
    ]);
    // Both rows of an extended INSERT are on its one line.
    expect(dump.jobs.rows[0]?.line).toBe(dump.jobs.rows[1]?.line);
    expect(text.split('\n')[(dump.jobs.rows[0]?.line ?? 0) - 1]).toMatch(
      /^INSERT INTO `xxl_job_info` VALUES/,
    );
  });

  it('decodes every escape and keeps ; ),( -- /* # and newlines inside strings', () => {
    const text = mysqldump({
      groups: [groupRow()],
      jobs: [jobRow({ glue_type: 'GLUE_SHELL', glue_source: HOSTILE_SOURCE })],
    });
    const dump = parseDump(text);
    expect(dump.jobs.rows).toHaveLength(1);
    expect(dump.jobs.rows[0]?.values.glue_source).toBe(HOSTILE_SOURCE);
  });

  it("reads MySQL's escapes and literal forms", () => {
    const text = `INSERT INTO xxl_job_group (id, app_name, title, address_type, address_list, update_time) VALUES
      (1, 'a\\'b\\"c\\\\d\\ne\\rf\\tg\\0h\\Zi\\bj\\%k\\_l\\qm', 'it''s', -1, _utf8mb4'x' 'y', DEFAULT),
      (2, _binary 'bin', X'e4bda0e5a5bd', +7, 0x6869, CURRENT_TIMESTAMP),
      (3, N'national', "double ""quoted""", TRUE, b'101', CONCAT('a', 'b')),
      (4, 1.5, 2e3, FALSE, NULL, now(3));`;
    const rows = parseDump(text).groups.rows.map((r) => r.values);
    expect(rows).toEqual([
      {
        id: 1,
        app_name: 'a\'b"c\\d\ne\rf\tg\0h\x1ai\bj\\%k\\_lqm',
        title: "it's",
        address_type: -1,
        address_list: 'xy',
        update_time: { expr: 'DEFAULT' },
      },
      {
        id: 2,
        app_name: 'bin',
        title: '你好',
        address_type: 7,
        address_list: 'hi',
        update_time: { expr: 'CURRENT_TIMESTAMP' },
      },
      {
        id: 3,
        app_name: 'national',
        title: 'double "quoted"',
        address_type: 1,
        address_list: 5,
        update_time: { expr: "CONCAT('a', 'b')" },
      },
      {
        id: 4,
        app_name: 1.5,
        title: 2000,
        address_type: 0,
        address_list: null,
        update_time: { expr: 'now(3)' },
      },
    ]);
  });

  it('takes the table name qualified by its database, INSERT IGNORE and REPLACE, ROW(...) and ON DUPLICATE KEY', () => {
    const text = [
      "INSERT IGNORE INTO `xxl_job`.`xxl_job_group` (`id`,`app_name`) VALUES (1,'one');",
      "REPLACE INTO xxl_job_group (id, app_name) VALUES ROW(2,'two');",
      "INSERT INTO `xxl_job_group` (`id`,`app_name`) VALUES (3,'three') AS n ON DUPLICATE KEY UPDATE app_name = n.app_name;",
    ].join('\n');
    const dump = parseDump(text);
    expect(dump.groups.rows.map((r) => [r.line, r.values])).toEqual([
      [1, { id: 1, app_name: 'one' }],
      [2, { id: 2, app_name: 'two' }],
      [3, { id: 3, app_name: 'three' }],
    ]);
  });

  it('leaves other tables alone, however large, even with names that start the same', () => {
    const text = [
      "INSERT INTO `xxl_job_log` VALUES (1,1,1,'http://x/','h','p;(','0/1',0,NULL,200,'it''s ; ok',NULL,0,NULL,0);",
      'INSERT INTO `xxl_job_info_backup` VALUES (1,2,3);',
      'INSERT INTO xxl_job_infos VALUES (1);',
      'CREATE TABLE `xxl_job_user` (`id` int NOT NULL);',
      "INSERT INTO `xxl_job_user`(`id`, `username`, `password`, `role`, `permission`) VALUES (1, 'admin', 'x', 1, NULL);",
      'SELECT 1;',
    ].join('\n');
    const dump = parseDump(text);
    expect(dump.groups.present).toBe(false);
    expect(dump.jobs.present).toBe(false);
    expect(dump.jobs.rows).toEqual([]);
    expect(dump.notes).toEqual([]);
  });

  it('reads comments of every kind, CRLF line ends, a BOM and a last statement without ;', () => {
    const text = [
      '\uFEFF# a hash comment; with a semicolon',
      '-- a dash comment; with a semicolon',
      '/* a block comment; with',
      'a semicolon */ INSERT INTO xxl_job_group (id, app_name) VALUES -- rows follow',
      "  (1, 'a'), # the first",
      "  /* the second */ (2, 'b--c')",
    ].join('\r\n');
    const dump = parseDump(text);
    expect(dump.groups.rows).toEqual([
      { line: 5, values: { id: 1, app_name: 'a' } },
      { line: 6, values: { id: 2, app_name: 'b--c' } },
    ]);
  });

  it('finds a statement behind a long run of comments', () => {
    const comments = Array.from({ length: 400 }, (_, i) => (i % 2 ? `-- comment ${i}` : `/* c ${i} */`)).join(
      '\n',
    );
    const dump = parseDump(`${comments}\nINSERT INTO xxl_job_group (id, app_name) VALUES (1, 'a');`);
    expect(dump.groups.rows).toEqual([{ line: 401, values: { id: 1, app_name: 'a' } }]);
  });

  it('reads -- without a space as two minus signs, not a comment (MySQL)', () => {
    const dump = parseDump("INSERT INTO xxl_job_group (id, app_name) VALUES (1--1, 'x');");
    expect(dump.groups.rows[0]?.values).toEqual({ id: { expr: '1--1' }, app_name: 'x' });
  });

  it('gives the same result whatever the chunks a stream is cut into', async () => {
    const text = mysqldump({
      groups: [groupRow()],
      jobs: [jobRow({ glue_type: 'GLUE_SHELL', glue_source: HOSTILE_SOURCE }), jobRow({ id: 2 })],
    });
    const whole = parseDump(text);
    for (const size of [1, 2, 3, 7, 64, 1000]) {
      const reader = createDumpReader();
      for (let i = 0; i < text.length; i += size) reader.push(text.slice(i, i + size));
      expect(reader.end(), `chunks of ${size}`).toEqual(whole);
    }
    // Bytes, with multi-byte characters cut in the middle.
    const bytes = new TextEncoder().encode(text);
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < bytes.length; i += 5) chunks.push(bytes.subarray(i, i + 5));
    expect(await readDump(chunks)).toEqual(whole);
  });
});

describe('parseDump: columns', () => {
  it('assumes the 2.4.2 / 3.4.2 columns for an INSERT without a column list in a dump without CREATE TABLE, and says so', () => {
    const dump = parseDump(mysqldump({ groups: [groupRow()], jobs: [jobRow()], createTables: false }));
    expect(dump.groups.columns).toBeNull();
    expect(dump.jobs.rows[0]?.values).toEqual(jobRow());
    expect(dump.notes).toEqual([
      expect.stringMatching(
        /^xxl_job_group: the dump has no CREATE TABLE and the INSERT on line \d+ names no columns; assumed the 6 columns of XXL-JOB 2.4.2 and 3.4.2/,
      ),
      expect.stringMatching(
        /^xxl_job_info: .* assumed the 24 columns of XXL-JOB 2.4.2 and 3.4.2 .*: id, job_group, job_desc,/,
      ),
    ]);
  });

  it('refuses an INSERT without a column list whose rows match no known column set, naming the line', () => {
    const err = parseError(
      "SET NAMES utf8mb4;\nINSERT INTO `xxl_job_group` VALUES (1,'a','b',0,NULL,'t','token');",
    );
    expect(err.line).toBe(2);
    expect(err.message).toMatch(
      /^line 2: an INSERT INTO xxl_job_group without a column list has rows of 7 values/,
    );
    expect(err.message).toMatch(/--complete-insert/);
  });

  it('refuses a row whose value count differs from its columns', () => {
    const err = parseError(
      `${'\n'.repeat(4)}INSERT INTO xxl_job_group (id, app_name) VALUES (1, 'a'),\n(2);`,
    );
    expect(err.line).toBe(6);
    expect(err.message).toBe('line 6: a row of xxl_job_group has 1 values for 2 columns');
  });

  it('keeps unknown columns in the rows and reports them once per table', () => {
    const columns = [...JOB_COLUMNS_2_4_2, 'tenant_id', 'Owner'];
    const text = mysqldump({
      groups: [groupRow({ order: 3 })],
      groupColumns: [...GROUP_COLUMNS, 'order'],
      jobs: [jobRow({ tenant_id: 7, Owner: 'x' }), jobRow({ id: 2, tenant_id: 8, Owner: 'y' })],
      jobColumns: columns,
      columnList: true,
    });
    const dump = parseDump(text);
    expect(dump.jobs.rows[1]?.values.tenant_id).toBe(8);
    expect(dump.jobs.rows[1]?.values.owner).toBe('y');
    // `order` is XXL-JOB 2.0's; the CREATE TABLE (without the two) and the INSERTs' lists are both read.
    expect(dump.notes).toEqual([
      "xxl_job_info: column(s) `tenant_id`, `owner` are not XXL-JOB's (2.x–3.5) and were ignored",
    ]);
  });

  it('reads the 3.5 names and unquoted column definitions from CREATE TABLE', () => {
    const text = `CREATE TABLE IF NOT EXISTS xxl_job_group (
      id int(11) NOT NULL AUTO_INCREMENT,
      app_name varchar(64) NOT NULL,
      \`name\` varchar(64) NOT NULL,
      address_type tinyint(4) NOT NULL DEFAULT '0',
      address_list text,
      access_token varchar(255) DEFAULT NULL,
      update_time datetime DEFAULT NULL,
      PRIMARY KEY (id),
      UNIQUE KEY i_app_name (app_name),
      CONSTRAINT chk CHECK (address_type IN (0, 1))
    ) ENGINE=InnoDB;
    INSERT INTO xxl_job_group VALUES (1,'app-one','One',0,NULL,'default_token',now());`;
    const dump = parseDump(text);
    expect(dump.groups.columns).toEqual([
      'id',
      'app_name',
      'name',
      'address_type',
      'address_list',
      'access_token',
      'update_time',
    ]);
    expect(dump.groups.rows[0]?.values.access_token).toBe('default_token');
    expect(dump.notes).toEqual([]);
  });
});

describe('parseDump: broken dumps', () => {
  it('names the line an unterminated string opens on', () => {
    const text = mysqldump({ groups: [groupRow()], jobs: [jobRow()] });
    const at = text.indexOf("'测试任务1'");
    const broken = `${text.slice(0, at)}'测试任务1\\'${text.slice(at + "'测试任务1'".length)}`;
    const line = text.slice(0, at).split('\n').length;
    const err = parseError(broken);
    expect(err).toBeInstanceOf(DumpParseError);
    expect(err.line).toBe(line);
    expect(err.message).toMatch(
      new RegExp(`^line ${line}: unterminated string: the quote opened on line ${line} is never closed`),
    );
  });

  it('names where a stray quote made the row stop reading as SQL', () => {
    const err = parseError(
      "INSERT INTO xxl_job_group (id, app_name, title) VALUES\n(1, 'it's', 'x'),\n(2, 'isn't', 'y');",
    );
    expect(err.line).toBe(2);
    expect(err.message).toMatch(
      /expected ',' or '\)' after value 2 of a row of xxl_job_group, found "s" \(is a quote in the string before it not escaped\?\)/,
    );
  });

  it('names the line an unterminated comment opens on', () => {
    const err = parseError('INSERT INTO xxl_job_group (id) VALUES (1);\n/* never closed\n\n');
    expect(err.line).toBe(2);
    expect(err.message).toMatch(/unterminated comment/);
  });

  it('refuses an unterminated quoted identifier and a truncated statement', () => {
    expect(parseError('INSERT INTO `xxl_job_group (id) VALUES (1);').message).toMatch(
      /^line 1: unterminated quoted identifier/,
    );
    expect(parseError("INSERT INTO xxl_job_group (id, app_name) VALUES (1, 'a'").message).toMatch(
      /expected ',' or '\)' after value 2 of a row of xxl_job_group, found the end of the statement/,
    );
    expect(parseError('CREATE TABLE xxl_job_info (id int,').message).toMatch(/the column list is not closed/);
  });

  it('never crashes or hangs on a mangled dump: it reads, or throws a DumpParseError', () => {
    const text = mysqldump({
      groups: [groupRow(), groupRow({ id: 2, app_name: 'b' })],
      jobs: [jobRow({ glue_type: 'GLUE_SHELL', glue_source: HOSTILE_SOURCE }), jobRow({ id: 2 })],
    });
    const insertAt = text.indexOf('INSERT INTO `xxl_job_info`');
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const troublemakers = ["'", '"', '`', '\\', ';', '(', ')', ',', '/*', '*/', '-- ', '#', '\n'];
    let threw = 0;
    for (let i = 0; i < 400; i++) {
      const at = insertAt + random(text.length - insertAt);
      const cut = random(3);
      const mangled = `${text.slice(0, at)}${troublemakers[random(troublemakers.length)]}${text.slice(at + cut)}`;
      try {
        parseDump(mangled);
      } catch (err) {
        expect(err).toBeInstanceOf(DumpParseError);
        expect((err as DumpParseError).line).toBeGreaterThan(0);
        threw++;
      }
    }
    expect(threw).toBeGreaterThan(0);
  });

  it('reads a dump of nothing', () => {
    const empty: ParsedDump = parseDump('');
    expect(empty.groups).toEqual({ table: 'xxl_job_group', present: false, columns: null, rows: [] });
    expect(empty.lines).toBe(1);
  });
});
