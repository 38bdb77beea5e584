/**
 * Reads the two XXL-JOB tables out of a MySQL dump (mysqldump output, or XXL-JOB's own
 * `tables_xxl_job.sql`): the column order from `CREATE TABLE`, the rows from `INSERT` (and `REPLACE`)
 * statements, with or without a column list, one row or many.
 *
 * Two stages, both linear. A character scanner splits the input into statements at `;` outside
 * strings, quoted identifiers and comments (`-- `, `#`, `/* *\/`, mysqldump's `/*!40101 ... *\/`),
 * chunk by chunk, so a dump can be streamed; it keeps the text of the statements about the two tables
 * only, so a dump with a large `xxl_job_log` costs its scanning, not its memory. A tokenizer then reads
 * each kept statement: MySQL string literals (backslash escapes `\' \" \\ \n \r \t \0 \Z \b`, `''`
 * doubling, adjacent literals concatenated, `_charset` introducers), numbers, `NULL`, `TRUE`/`FALSE`,
 * hex and bit literals (`0x..`, `X'..'`, `b'..'`), and any other value (`now()`, `DEFAULT`) as an
 * expression it does not evaluate.
 *
 * Broken input fails with a {@link DumpParseError} naming the line: an unterminated string or comment
 * (the line it was opened on), or a statement that does not read as SQL (where it stopped making sense).
 */
import {
  ASSUMED_COLUMNS,
  ASSUMED_VERSIONS,
  GROUP_TABLE,
  JOB_TABLE,
  KNOWN_COLUMNS,
  type XxlTable,
} from './schema.js';

/** A value of a row: a string, a number, NULL, or an expression left as its SQL text. */
export type SqlValue = string | number | null | SqlExpression;
/** A value the reader does not evaluate, such as `now()` or `DEFAULT`: its SQL text. */
export interface SqlExpression {
  readonly expr: string;
}

export interface DumpRow {
  /** The line its `(` is on. */
  readonly line: number;
  /** By column name, lower case. */
  readonly values: Readonly<Record<string, SqlValue>>;
}

export interface DumpTable {
  readonly table: XxlTable;
  /** Whether the dump has a CREATE TABLE or an INSERT for the table. */
  readonly present: boolean;
  /** The columns of its last CREATE TABLE, lower case; null when the dump has none. */
  readonly columns: readonly string[] | null;
  readonly rows: readonly DumpRow[];
}

export interface ParsedDump {
  readonly groups: DumpTable;
  readonly jobs: DumpTable;
  /** What the reader assumed or ignored: assumed column orders, unknown columns, skipped statements. */
  readonly notes: readonly string[];
  /** Lines read. */
  readonly lines: number;
}

/** The dump cannot be read; `line` (1-based) is where, and the message says it too. */
export class DumpParseError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(`line ${line}: ${message}`);
    this.name = 'DumpParseError';
  }
}

/** A reader fed chunk by chunk (e.g. a file stream decoded as UTF-8); `end()` gives the result. */
export interface DumpReader {
  push(chunk: string): void;
  end(): ParsedDump;
}

/** Reads a whole dump held in a string. */
export function parseDump(text: string): ParsedDump {
  const reader = createDumpReader();
  reader.push(text);
  return reader.end();
}

/**
 * Reads a dump from a stream of chunks, e.g. `fs.createReadStream(path)`: bytes are decoded as
 * UTF-8 (mysqldump's default `utf8mb4`), a chunk boundary may fall anywhere.
 */
export async function readDump(
  chunks: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>,
): Promise<ParsedDump> {
  const reader = createDumpReader();
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of chunks) {
    reader.push(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
  }
  reader.push(decoder.decode());
  return reader.end();
}

export function createDumpReader(): DumpReader {
  const collector = new TableCollector();
  const splitter = new StatementSplitter((text, line) => collector.statement(text, line));
  let ended = false;
  return {
    push(chunk) {
      if (ended) throw new Error('the dump reader has ended');
      splitter.push(chunk);
    },
    end() {
      if (ended) throw new Error('the dump reader has ended');
      ended = true;
      const lines = splitter.end();
      return collector.result(lines);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Stage 1: statements

const LF = 10;
const CR = 13;
const TAB = 9;
const SPACE = 32;
const SQ = 39; // '
const DQ = 34; // "
const BT = 96; // `
const BACKSLASH = 92;
const SEMI = 59;
const DASH = 45;
const SLASH = 47;
const STAR = 42;
const HASH = 35;
const BOM = 0xfeff;

// Scanner states. The *_QUOTE states have seen a closing quote that may be the first of a doubled one.
const S_NORMAL = 0;
const S_SQ = 1;
const S_SQ_ESC = 2;
const S_SQ_QUOTE = 3;
const S_DQ = 4;
const S_DQ_ESC = 5;
const S_DQ_QUOTE = 6;
const S_BT = 7;
const S_BT_QUOTE = 8;
const S_LINE_COMMENT = 9;
const S_BLOCK_COMMENT = 10;
const S_BLOCK_STAR = 11;
const S_DASH = 12; // saw '-'
const S_DASH_DASH = 13; // saw '--': a comment if whitespace follows
const S_SLASH = 14; // saw '/'

/** How much of a statement is looked at to decide whether it is about the two tables. */
const HEAD_LENGTH = 256;

const INTERESTING =
  /^(?:CREATE\s+(?:TEMPORARY\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?|(?:INSERT|REPLACE)\s+(?:(?:LOW_PRIORITY|DELAYED|HIGH_PRIORITY|IGNORE)\s+)*(?:INTO\s+)?)(?:(?:`[^`]*`|"[^"]*"|[\w$]+)\s*\.\s*)?(?:`xxl_job_(?:group|info)`|"xxl_job_(?:group|info)"|xxl_job_(?:group|info)(?![\w$]))/i;

function isSpace(c: number): boolean {
  return c === SPACE || c === LF || c === CR || c === TAB || c === 11 || c === 12;
}

class StatementSplitter {
  private state = S_NORMAL;
  private line = 1;
  /** Where the open string, identifier or comment began. */
  private openLine = 0;
  private openKind = '';
  private parts: string[] = [];
  private length = 0;
  /** The line of the statement's first character; 0 before it. */
  private startLine = 0;
  private keep: boolean | undefined;
  /** The length at which to look at the statement's head (again). */
  private decideAt = HEAD_LENGTH;
  /** Text held back while it is unclear whether it opens a comment ('/', '-', '--'). */
  private pending = '';
  /** Newlines inside the comment being skipped (put back so lines still count right). */
  private commentNewlines = 0;
  private started = false;

  constructor(private readonly onStatement: (text: string, line: number) => void) {}

  push(chunk: string): void {
    let state = this.state;
    let line = this.line;
    let i = 0;
    if (!this.started && chunk.length > 0) {
      this.started = true;
      if (chunk.charCodeAt(0) === BOM) i = 1;
    }
    const collecting = (s: number) => s <= S_BT_QUOTE;
    let seg = collecting(state) ? i : -1;
    const n = chunk.length;
    for (; i < n; i++) {
      const c = chunk.charCodeAt(i);
      // A character may be looked at twice: once by a state that only learns from it that the
      // previous one ended something (a quote, a '/', a '-'), then by the state it returns to.
      for (;;) {
        switch (state) {
          case S_NORMAL:
            if (c === SEMI) {
              this.append(chunk, seg, i);
              this.endStatement();
              seg = i + 1;
            } else if (!isSpace(c)) {
              if (this.startLine === 0) {
                // Whatever came before the first character (spaces, comments) is dropped.
                this.parts = [];
                this.length = 0;
                this.startLine = line;
                seg = i;
              }
              if (c === SQ) {
                state = S_SQ;
                this.open(line, 'string');
              } else if (c === DQ) {
                state = S_DQ;
                this.open(line, 'string');
              } else if (c === BT) {
                state = S_BT;
                this.open(line, 'quoted identifier');
              } else if (c === HASH) {
                this.append(chunk, seg, i);
                seg = -1;
                state = S_LINE_COMMENT;
              } else if (c === DASH) {
                this.append(chunk, seg, i);
                seg = -1;
                this.pending = '-';
                state = S_DASH;
              } else if (c === SLASH) {
                this.append(chunk, seg, i);
                seg = -1;
                this.pending = '/';
                state = S_SLASH;
              }
            }
            break;
          case S_SQ:
            if (c === BACKSLASH) state = S_SQ_ESC;
            else if (c === SQ) state = S_SQ_QUOTE;
            break;
          case S_SQ_ESC:
            state = S_SQ;
            break;
          case S_SQ_QUOTE:
            if (c === SQ) state = S_SQ;
            else {
              state = S_NORMAL;
              continue;
            }
            break;
          case S_DQ:
            if (c === BACKSLASH) state = S_DQ_ESC;
            else if (c === DQ) state = S_DQ_QUOTE;
            break;
          case S_DQ_ESC:
            state = S_DQ;
            break;
          case S_DQ_QUOTE:
            if (c === DQ) state = S_DQ;
            else {
              state = S_NORMAL;
              continue;
            }
            break;
          case S_BT:
            if (c === BT) state = S_BT_QUOTE;
            break;
          case S_BT_QUOTE:
            if (c === BT) state = S_BT;
            else {
              state = S_NORMAL;
              continue;
            }
            break;
          case S_LINE_COMMENT:
            if (c === LF) {
              state = S_NORMAL;
              seg = i; // the newline stays
            }
            break;
          case S_BLOCK_COMMENT:
            if (c === STAR) state = S_BLOCK_STAR;
            else if (c === LF) this.commentNewlines++;
            break;
          case S_BLOCK_STAR:
            if (c === SLASH) {
              this.addText(this.commentNewlines > 0 ? '\n'.repeat(this.commentNewlines) : ' ');
              this.commentNewlines = 0;
              state = S_NORMAL;
              seg = i + 1;
            } else if (c !== STAR) {
              if (c === LF) this.commentNewlines++;
              state = S_BLOCK_COMMENT;
            }
            break;
          case S_SLASH:
            if (c === STAR) {
              this.pending = '';
              this.open(line, 'comment');
              this.commentNewlines = 0;
              state = S_BLOCK_COMMENT;
            } else {
              this.flushPending();
              state = S_NORMAL;
              seg = i;
              continue;
            }
            break;
          case S_DASH:
            if (c === DASH) {
              this.pending = '--';
              state = S_DASH_DASH;
            } else {
              this.flushPending();
              state = S_NORMAL;
              seg = i;
              continue;
            }
            break;
          case S_DASH_DASH:
            this.pending = '';
            if (isSpace(c) || c < SPACE) {
              // MySQL: "-- " starts a comment only when a space or control character follows.
              state = S_LINE_COMMENT;
              continue;
            }
            this.addText('--');
            state = S_NORMAL;
            seg = i;
            continue;
        }
        break;
      }
      if (c === LF) line++;
    }
    if (seg >= 0) this.append(chunk, seg, n);
    this.state = state;
    this.line = line;
  }

  /** Ends the input; returns the number of lines read. */
  end(): number {
    const state = this.state;
    if (state === S_SQ || state === S_SQ_ESC || state === S_DQ || state === S_DQ_ESC || state === S_BT) {
      throw new DumpParseError(
        `unterminated ${this.openKind}: the quote opened on line ${this.openLine} is never closed (a quote inside a value that is not escaped?)`,
        this.openLine,
      );
    }
    if (state === S_BLOCK_COMMENT || state === S_BLOCK_STAR) {
      throw new DumpParseError(
        `unterminated comment: the /* opened on line ${this.openLine} is never closed`,
        this.openLine,
      );
    }
    if (state === S_SLASH || state === S_DASH || state === S_DASH_DASH) this.flushPending();
    this.endStatement();
    return this.line;
  }

  private open(line: number, kind: string): void {
    this.openLine = line;
    this.openKind = kind;
  }

  private flushPending(): void {
    if (this.pending !== '') this.addText(this.pending);
    this.pending = '';
  }

  private append(chunk: string, from: number, to: number): void {
    if (from >= 0 && to > from) this.addText(chunk.slice(from, to));
  }

  private addText(text: string): void {
    if (this.keep === false) return;
    this.parts.push(text);
    this.length += text.length;
    if (this.keep === undefined && this.startLine !== 0 && this.length >= this.decideAt) this.decide(false);
  }

  /**
   * Whether the statement is about the two tables, from its first characters. Comments before it
   * leave only their newlines, so a long run of them defers the decision until there is text.
   */
  private decide(final: boolean): void {
    const text = this.parts.join('');
    this.parts = [text];
    const head = text.trimStart();
    if (!final && head.length < HEAD_LENGTH) {
      this.decideAt = this.length + HEAD_LENGTH;
      return;
    }
    this.keep = INTERESTING.test(head.slice(0, HEAD_LENGTH));
    if (!this.keep) this.parts = [];
  }

  private endStatement(): void {
    if (this.startLine !== 0) {
      if (this.keep === undefined) this.decide(true);
      if (this.keep) this.onStatement(this.parts.join(''), this.startLine);
    }
    this.parts = [];
    this.length = 0;
    this.startLine = 0;
    this.keep = undefined;
    this.decideAt = HEAD_LENGTH;
  }
}

// ---------------------------------------------------------------------------------------------
// Stage 2: tokens of one statement

type TokenKind = 'word' | 'ident' | 'string' | 'number' | 'hex' | 'bits' | 'punct' | 'eof';

interface Token {
  readonly kind: TokenKind;
  /** The source text (for words and punctuation), or the decoded value (strings, identifiers). */
  readonly text: string;
  readonly line: number;
  /** Where a string literal began and ended (they may span lines). */
  readonly endLine: number;
  /** String literals: the quote used. */
  readonly quote?: string;
  /** Whether whitespace came before the token. */
  readonly spaced: boolean;
}

const ESCAPES: Readonly<Record<string, string>> = {
  '0': '\0',
  b: '\b',
  n: '\n',
  r: '\r',
  t: '\t',
  Z: '\x1a',
  // MySQL keeps the backslash of \% and \_ (they matter in LIKE patterns only).
  '%': '\\%',
  _: '\\_',
};

function isWordChar(c: number): boolean {
  return (
    (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36 || c >= 128
  );
}

class Tokenizer {
  private pos = 0;
  private line: number;
  private peeked: Token | undefined;

  constructor(
    private readonly src: string,
    startLine: number,
  ) {
    this.line = startLine;
  }

  peek(): Token {
    this.peeked ??= this.read();
    return this.peeked;
  }

  next(): Token {
    const token = this.peek();
    this.peeked = undefined;
    return token;
  }

  private read(): Token {
    const src = this.src;
    let spaced = false;
    while (this.pos < src.length && isSpace(src.charCodeAt(this.pos))) {
      if (src.charCodeAt(this.pos) === LF) this.line++;
      this.pos++;
      spaced = true;
    }
    const line = this.line;
    if (this.pos >= src.length) return { kind: 'eof', text: '', line, endLine: line, spaced };
    const start = this.pos;
    const c = src.charCodeAt(start);
    if (c === SQ || c === DQ) {
      const quote = src[start] as string;
      const text = this.quoted(c, true);
      return { kind: 'string', text, line, endLine: this.line, quote, spaced };
    }
    if (c === BT) {
      const text = this.quoted(c, false);
      return { kind: 'ident', text, line, endLine: this.line, spaced };
    }
    if ((c >= 48 && c <= 57) || (c === 46 && isDigit(src.charCodeAt(start + 1)))) {
      const m = /^(?:0x[0-9a-fA-F]+|0b[01]+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)/.exec(
        src.slice(start, start + 400),
      );
      const text = m?.[0] ?? '';
      if (text !== '' && !isWordChar(src.charCodeAt(start + text.length))) {
        this.pos = start + text.length;
        const kind = /^0x/.test(text) ? 'hex' : /^0b/.test(text) ? 'bits' : 'number';
        return { kind, text, line, endLine: line, spaced };
      }
    }
    if (isWordChar(c)) {
      let end = start + 1;
      while (end < src.length && isWordChar(src.charCodeAt(end))) end++;
      this.pos = end;
      return { kind: 'word', text: src.slice(start, end), line, endLine: line, spaced };
    }
    this.pos = start + 1;
    return { kind: 'punct', text: src[start] as string, line, endLine: line, spaced };
  }

  /** A quoted string (backslash escapes when `escapes`) or identifier, decoded; `pos` is on its quote. */
  private quoted(quote: number, escapes: boolean): string {
    const src = this.src;
    const openLine = this.line;
    let out = '';
    let i = this.pos + 1;
    let from = i;
    for (;;) {
      if (i >= src.length) {
        throw new DumpParseError(
          `unterminated string: the quote opened on line ${openLine} is never closed`,
          openLine,
        );
      }
      const c = src.charCodeAt(i);
      if (c === quote) {
        out += src.slice(from, i);
        if (src.charCodeAt(i + 1) === quote) {
          out += src[i];
          i += 2;
          from = i;
          continue;
        }
        this.pos = i + 1;
        return out;
      }
      if (c === LF) this.line++;
      if (escapes && c === BACKSLASH) {
        out += src.slice(from, i);
        const next = src[i + 1];
        if (next === undefined) {
          throw new DumpParseError(
            `unterminated string: the quote opened on line ${openLine} is never closed`,
            openLine,
          );
        }
        if (next === '\n') this.line++;
        out += ESCAPES[next] ?? next;
        i += 2;
        from = i;
        continue;
      }
      i++;
    }
  }
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

// ---------------------------------------------------------------------------------------------
// Statements about the two tables

const NOT_COLUMNS = new Set([
  'PRIMARY',
  'KEY',
  'INDEX',
  'UNIQUE',
  'CONSTRAINT',
  'FOREIGN',
  'FULLTEXT',
  'SPATIAL',
  'CHECK',
]);

interface TableState {
  present: boolean;
  columns: string[] | null;
  rows: DumpRow[];
  unknown: Set<string>;
  assumedAt: number;
}

class TableCollector {
  private readonly tables: Record<XxlTable, TableState> = {
    [GROUP_TABLE]: { present: false, columns: null, rows: [], unknown: new Set(), assumedAt: 0 },
    [JOB_TABLE]: { present: false, columns: null, rows: [], unknown: new Set(), assumedAt: 0 },
  };
  private readonly notes: string[] = [];

  statement(text: string, line: number): void {
    const t = new Tokenizer(text, line);
    const first = t.next();
    const verb = first.text.toUpperCase();
    if (verb === 'CREATE') this.create(t);
    else this.insert(t, first);
  }

  result(lines: number): ParsedDump {
    const table = (name: XxlTable): DumpTable => {
      const s = this.tables[name];
      if (s.unknown.size > 0) {
        this.notes.push(
          `${name}: column(s) ${[...s.unknown].map((c) => `\`${c}\``).join(', ')} are not XXL-JOB's (2.x–3.5) and were ignored`,
        );
      }
      return { table: name, present: s.present, columns: s.columns, rows: s.rows };
    };
    const groups = table(GROUP_TABLE);
    const jobs = table(JOB_TABLE);
    return { groups, jobs, notes: this.notes, lines };
  }

  private create(t: Tokenizer): void {
    while (/^(TEMPORARY|TABLE|IF|NOT|EXISTS)$/i.test(t.peek().text) && t.peek().kind === 'word') t.next();
    const name = this.tableName(t);
    const s = this.tables[name];
    s.present = true;
    const open = t.next();
    if (open.text !== '(' || open.kind !== 'punct') {
      this.notes.push(
        `${name}: the CREATE TABLE on line ${open.line} lists no columns (LIKE or AS SELECT?); ignored`,
      );
      return;
    }
    const columns: string[] = [];
    for (;;) {
      const head = t.next();
      if (head.kind === 'eof')
        throw new DumpParseError(`CREATE TABLE ${name}: the column list is not closed`, head.line);
      if (head.kind === 'punct' && head.text === ')') break;
      if (head.kind === 'punct' && head.text === ',') continue;
      if (head.kind === 'ident' || (head.kind === 'word' && !NOT_COLUMNS.has(head.text.toUpperCase()))) {
        columns.push(head.text.toLowerCase());
      } else if (head.kind === 'string' && head.quote === '"') {
        columns.push(head.text.toLowerCase()); // ANSI_QUOTES: "name" is an identifier
      }
      // The rest of this definition, up to its ',' or the list's ')'.
      let depth = head.kind === 'punct' && head.text === '(' ? 1 : 0;
      let closed = false;
      for (;;) {
        const tok = t.next();
        if (tok.kind === 'eof') {
          throw new DumpParseError(`CREATE TABLE ${name}: the column list is not closed`, tok.line);
        }
        if (tok.kind !== 'punct') continue;
        if (tok.text === '(') depth++;
        else if (tok.text === ')') {
          if (depth === 0) {
            closed = true;
            break;
          }
          depth--;
        } else if (tok.text === ',' && depth === 0) break;
      }
      if (closed) break;
    }
    s.columns = columns;
    for (const c of columns) if (!KNOWN_COLUMNS[name].has(c)) s.unknown.add(c);
  }

  private insert(t: Tokenizer, verb: Token): void {
    while (
      t.peek().kind === 'word' &&
      /^(LOW_PRIORITY|DELAYED|HIGH_PRIORITY|IGNORE|INTO)$/i.test(t.peek().text)
    ) {
      t.next();
    }
    const name = this.tableName(t);
    const s = this.tables[name];
    s.present = true;
    let columns: string[] | undefined;
    let tok = t.next();
    if (tok.kind === 'punct' && tok.text === '(') {
      if (t.peek().kind === 'word' && t.peek().text.toUpperCase() === 'SELECT') {
        this.notes.push(
          `${name}: the ${verb.text.toUpperCase()} ... SELECT on line ${verb.line} was skipped`,
        );
        return;
      }
      columns = [];
      for (;;) {
        const col = t.next();
        if (col.kind === 'ident' || col.kind === 'word' || (col.kind === 'string' && col.quote === '"')) {
          columns.push(col.text.toLowerCase());
        } else {
          throw unexpected(col, `a column name in the column list of ${name}`);
        }
        const sep = t.next();
        if (sep.kind === 'punct' && sep.text === ')') break;
        if (!(sep.kind === 'punct' && sep.text === ','))
          throw unexpected(sep, `',' or ')' in the column list`);
      }
      for (const c of columns) if (!KNOWN_COLUMNS[name].has(c)) s.unknown.add(c);
      tok = t.next();
    }
    const keyword = tok.kind === 'word' ? tok.text.toUpperCase() : '';
    if (keyword !== 'VALUES' && keyword !== 'VALUE') {
      if (keyword === 'SELECT' || keyword === 'SET' || keyword === 'TABLE' || keyword === 'WITH') {
        this.notes.push(
          `${name}: the ${verb.text.toUpperCase()} ... ${keyword} on line ${verb.line} was skipped (only VALUES rows are read)`,
        );
        return;
      }
      throw unexpected(tok, 'VALUES');
    }
    for (;;) {
      let open = t.next();
      if (open.kind === 'word' && open.text.toUpperCase() === 'ROW') open = t.next();
      if (!(open.kind === 'punct' && open.text === '('))
        throw unexpected(open, `'(' opening a row of ${name}`);
      const values = this.rowValues(t, name);
      const cols = columns ?? this.columnsFor(name, s, values.length, open.line);
      if (values.length !== cols.length) {
        throw new DumpParseError(
          `a row of ${name} has ${values.length} values for ${cols.length} columns${columns ? '' : ' (the table has no column list in this INSERT; the columns are from its CREATE TABLE)'}`,
          open.line,
        );
      }
      s.rows.push({
        line: open.line,
        values: Object.fromEntries(cols.map((c, i) => [c, values[i] ?? null])),
      });
      const sep = t.peek();
      if (sep.kind === 'punct' && sep.text === ',') {
        t.next();
        continue;
      }
      break;
    }
    // Anything after the rows (AS alias, ON DUPLICATE KEY UPDATE ...) does not add rows.
  }

  private columnsFor(name: XxlTable, s: TableState, count: number, line: number): readonly string[] {
    if (s.columns) return s.columns;
    const assumed = ASSUMED_COLUMNS[name].find((set) => set.length === count);
    if (!assumed) {
      const known = ASSUMED_COLUMNS[name].map((set) => set.length).join(' or ');
      throw new DumpParseError(
        `an INSERT INTO ${name} without a column list has rows of ${count} values, and the dump has no CREATE TABLE ${name} to say which columns they are; ${ASSUMED_VERSIONS} have ${known}. Dump the table with its definition, or with mysqldump --complete-insert`,
        line,
      );
    }
    if (s.assumedAt === 0) {
      s.assumedAt = line;
      this.notes.push(
        `${name}: the dump has no CREATE TABLE and the INSERT on line ${line} names no columns; assumed the ${count} columns of ${ASSUMED_VERSIONS}: ${assumed.join(', ')}`,
      );
    }
    return assumed;
  }

  /** The values of one row, after its '(' up to and with its ')'. */
  private rowValues(t: Tokenizer, table: string): SqlValue[] {
    const values: SqlValue[] = [];
    const first = t.peek();
    if (first.kind === 'punct' && first.text === ')') {
      t.next();
      return values;
    }
    for (;;) {
      values.push(this.value(t, table));
      const sep = t.next();
      if (sep.kind === 'punct' && sep.text === ')') return values;
      if (!(sep.kind === 'punct' && sep.text === ',')) {
        throw unexpected(
          sep,
          `',' or ')' after value ${values.length} of a row of ${table}`,
          this.lastString,
        );
      }
    }
  }

  private lastString: Token | undefined;

  private value(t: Tokenizer, table: string): SqlValue {
    this.lastString = undefined;
    const tok = t.peek();
    if (tok.kind === 'string') return this.strings(t);
    if (tok.kind === 'number') {
      t.next();
      const after = t.peek();
      if (after.kind === 'punct' && after.text !== ',' && after.text !== ')')
        return this.expression(t, tok.text);
      return Number(tok.text);
    }
    if (tok.kind === 'hex') {
      t.next();
      return hexToString(tok.text.slice(2), tok.line);
    }
    if (tok.kind === 'bits') {
      t.next();
      return Number.parseInt(tok.text.slice(2), 2);
    }
    if (tok.kind === 'word') {
      const upper = tok.text.toUpperCase();
      if (upper === 'NULL') {
        t.next();
        return null;
      }
      if (upper === 'TRUE' || upper === 'FALSE') {
        t.next();
        return upper === 'TRUE' ? 1 : 0;
      }
      // X'..' and B'..' literals, N'..' and _charset'..' strings.
      const introducer = /^(?:[XBN]|_[A-Za-z0-9]+)$/i.test(tok.text);
      if (introducer) {
        t.next();
        const lit = t.peek();
        if (lit.kind === 'string' && (upper === 'X' || upper === 'B') && !lit.spaced) {
          t.next();
          return upper === 'X' ? hexToString(lit.text, lit.line) : Number.parseInt(lit.text || '0', 2);
        }
        if (upper !== 'X' && upper !== 'B' && lit.kind === 'string') return this.strings(t);
        if (upper.startsWith('_') && lit.kind === 'hex') {
          t.next();
          return hexToString(lit.text.slice(2), lit.line);
        }
        return this.expression(t, tok.text);
      }
    }
    if (tok.kind === 'punct' && (tok.text === '-' || tok.text === '+')) {
      // A signed number, or an expression.
      t.next();
      const num = t.peek();
      if (num.kind === 'number') {
        t.next();
        const after = t.peek();
        if (after.kind === 'punct' && (after.text === ',' || after.text === ')')) {
          return tok.text === '-' ? -Number(num.text) : Number(num.text);
        }
        return this.expression(t, `${tok.text}${num.text}`);
      }
      return this.expression(t, tok.text);
    }
    if (tok.kind === 'eof') throw unexpected(tok, `a value of a row of ${table}`);
    if (tok.kind === 'punct' && (tok.text === ',' || tok.text === ')')) {
      throw unexpected(tok, `a value of a row of ${table}`);
    }
    return this.expression(t, '');
  }

  /** One string literal, or adjacent ones (MySQL concatenates 'a' 'b'). */
  private strings(t: Tokenizer): string {
    let out = '';
    for (;;) {
      const tok = t.peek();
      if (tok.kind !== 'string') break;
      t.next();
      out += tok.text;
      this.lastString = tok;
    }
    return out;
  }

  /** Any other value, up to the ',' or ')' that ends it: kept as its text, e.g. `now()`. */
  private expression(t: Tokenizer, prefix: string): SqlExpression {
    let text = prefix;
    let depth = 0;
    for (;;) {
      const tok = t.peek();
      if (tok.kind === 'eof') throw unexpected(tok, `')' closing a row`);
      if (tok.kind === 'punct') {
        if (depth === 0 && (tok.text === ',' || tok.text === ')')) break;
        if (tok.text === '(') depth++;
        if (tok.text === ')') depth--;
      }
      t.next();
      const piece = tok.kind === 'string' ? `'${tok.text.replaceAll("'", "''")}'` : tok.text;
      text += text !== '' && tok.spaced ? ` ${piece}` : piece;
    }
    return { expr: text };
  }

  private tableName(t: Tokenizer): XxlTable {
    let tok = t.next();
    if (t.peek().kind === 'punct' && t.peek().text === '.') {
      t.next();
      tok = t.next();
    }
    const name = tok.text.toLowerCase();
    if (name !== GROUP_TABLE && name !== JOB_TABLE) throw unexpected(tok, 'the table name');
    return name;
  }
}

function unexpected(tok: Token, expected: string, lastString?: Token): DumpParseError {
  const found =
    tok.kind === 'eof'
      ? 'the end of the statement'
      : tok.kind === 'string'
        ? `a string starting ${JSON.stringify(tok.text.slice(0, 40))}`
        : `${JSON.stringify(tok.text.slice(0, 40))}`;
  const hint =
    lastString && lastString.endLine !== lastString.line
      ? ` (the string before it runs from line ${lastString.line} to line ${lastString.endLine}: is a quote in it not escaped?)`
      : lastString
        ? ' (is a quote in the string before it not escaped?)'
        : '';
  return new DumpParseError(`expected ${expected}, found ${found}${hint}`, tok.line);
}

function hexToString(hex: string, line: number): string {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) {
    throw new DumpParseError(`a hex literal must have an even number of hex digits`, line);
  }
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return new TextDecoder('utf-8').decode(bytes);
}
