import type { StatementObserver } from '@tickring/embedded/sqlite';
import { type LatencySummary, latencySummary } from './workflow-shape.js';

/** Statements of one kind on one table. */
export interface SqliteUsageRow {
  /** `insert`, `insert if absent` (ON CONFLICT DO NOTHING / OR IGNORE), `upsert`, `update`, `delete`, `select`, … */
  readonly operation: string;
  readonly table: string;
  readonly statements: number;
  /** Time spent in them, on the one connection the stack shares, ms. */
  readonly ms: number;
}

export interface SqliteUsage {
  /** Statements run (prepared ones; BEGIN/COMMIT apart). */
  readonly statements: number;
  /** Write transactions begun (`BEGIN IMMEDIATE`); a statement outside one commits on its own. */
  readonly transactions: number;
  /** Time in statements and transactions' BEGIN/COMMIT, ms. */
  readonly ms: number;
  readonly rows: readonly SqliteUsageRow[];
}

type MutableRow = { -readonly [K in keyof SqliteUsageRow]: SqliteUsageRow[K] };

/**
 * Counts the statements of the stack's SQLite connection (the driver shim's observer: one per
 * process, shared by every hosted function) by kind and table, and their time; optionally each
 * statement's duration, for a latency summary.
 */
export class SqliteMeter {
  private readonly rows = new Map<string, MutableRow>();
  private readonly kinds = new Map<string, { operation: string; table: string }>();
  private transactions = 0;
  private transactionMs = 0;
  private durations: number[] | undefined;

  constructor(options: { readonly keepDurations?: boolean } = {}) {
    if (options.keepDurations) this.durations = [];
  }

  readonly observer: StatementObserver = (sql, call, ms) => {
    this.durations?.push(ms);
    if (call === 'exec') {
      if (/^\s*BEGIN/i.test(sql)) this.transactions++;
      this.transactionMs += ms;
      return;
    }
    let kind = this.kinds.get(sql);
    if (!kind) {
      kind = statementKind(sql);
      this.kinds.set(sql, kind);
    }
    const key = `${kind.operation}\u0000${kind.table}`;
    let row = this.rows.get(key);
    if (!row) {
      row = { ...kind, statements: 0, ms: 0 };
      this.rows.set(key, row);
    }
    row.statements++;
    row.ms += ms;
  };

  reset(): void {
    this.rows.clear();
    this.transactions = 0;
    this.transactionMs = 0;
    if (this.durations) this.durations = [];
  }

  snapshot(): SqliteUsage {
    const rows = [...this.rows.values()].map((r) => ({ ...r })).sort((a, b) => b.statements - a.statements);
    return {
      statements: rows.reduce((n, r) => n + r.statements, 0),
      transactions: this.transactions,
      ms: rows.reduce((n, r) => n + r.ms, this.transactionMs),
      rows,
    };
  }

  /** Each statement's duration since the last reset (when kept). */
  latency(): LatencySummary {
    return latencySummary(this.durations ?? []);
  }
}

/** The kind of a statement and the table it names first, from its SQL text. */
export function statementKind(sql: string): { operation: string; table: string } {
  const text = sql.replace(/\s+/g, ' ').trim();
  const table = (pattern: RegExp) => pattern.exec(text)?.[1] ?? '-';
  if (/^INSERT/i.test(text)) {
    const into = table(/INTO\s+"?(\w+)/i);
    if (/ON CONFLICT[^)]*\)?\s*DO NOTHING|^INSERT OR IGNORE/i.test(text))
      return { operation: 'insert if absent', table: into };
    if (/ON CONFLICT.*DO UPDATE|^INSERT OR REPLACE/i.test(text)) return { operation: 'upsert', table: into };
    return { operation: 'insert', table: into };
  }
  if (/^REPLACE/i.test(text)) return { operation: 'upsert', table: table(/INTO\s+"?(\w+)/i) };
  if (/^UPDATE/i.test(text)) return { operation: 'update', table: table(/^UPDATE\s+(?:OR \w+\s+)?"?(\w+)/i) };
  if (/^DELETE/i.test(text)) return { operation: 'delete', table: table(/FROM\s+"?(\w+)/i) };
  if (/^(SELECT|WITH)/i.test(text)) return { operation: 'select', table: table(/FROM\s+"?(\w+)/i) };
  return { operation: text.split(' ')[0]?.toLowerCase() ?? '?', table: '-' };
}
