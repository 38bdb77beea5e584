// How the audit page shows a record: the changed fields as before → after rows, the target as a
// link to what it names. Pure functions.

/** One value of a changed field, ready to show. */
export interface ShownValue {
  /** The text to show ("—" when the field was not there). */
  readonly text: string;
  /** The field was not there (before a creation, after a deletion). */
  readonly absent: boolean;
  /** A secret: the server wrote `[redacted]` in its place. */
  readonly redacted: boolean;
  /** null, "" or absent: shown muted. */
  readonly blank: boolean;
  /** Long or structured: shown as a block, not inline. */
  readonly block: boolean;
}

export interface DiffRow {
  readonly field: string;
  readonly kind: 'added' | 'removed' | 'changed';
  readonly before: ShownValue;
  readonly after: ShownValue;
}

export const REDACTED = '[redacted]';
const INLINE_MAX = 60;

export function showValue(value: unknown, present: boolean): ShownValue {
  if (!present || value === undefined) {
    return { text: '—', absent: true, redacted: false, blank: true, block: false };
  }
  if (value === null) return { text: 'null', absent: false, redacted: false, blank: true, block: false };
  if (typeof value === 'string') {
    if (value === REDACTED)
      return { text: REDACTED, absent: false, redacted: true, blank: false, block: false };
    if (value === '') return { text: '""', absent: false, redacted: false, blank: true, block: false };
    return {
      text: value,
      absent: false,
      redacted: false,
      blank: false,
      block: value.length > INLINE_MAX || value.includes('\n'),
    };
  }
  if (typeof value === 'object') {
    const compact = JSON.stringify(value);
    if (compact.length <= INLINE_MAX) {
      return { text: compact, absent: false, redacted: false, blank: false, block: false };
    }
    return {
      text: JSON.stringify(value, null, 2),
      absent: false,
      redacted: false,
      blank: false,
      block: true,
    };
  }
  return { text: String(value), absent: false, redacted: false, blank: false, block: false };
}

/** The rows of a record's `changes`, in the server's order. */
export function diffRows(
  changes: Readonly<Record<string, { before?: unknown; after?: unknown }>>,
): DiffRow[] {
  return Object.entries(changes).map(([field, change]) => {
    const hasBefore = Object.hasOwn(change, 'before');
    const hasAfter = Object.hasOwn(change, 'after');
    return {
      field,
      kind: !hasBefore ? 'added' : !hasAfter ? 'removed' : 'changed',
      before: showValue(change.before, hasBefore),
      after: showValue(change.after, hasAfter),
    };
  });
}

/** "3 fields", "1 field", "no fields". */
export function fieldCount(changes: Readonly<Record<string, unknown>>): string {
  const n = Object.keys(changes).length;
  if (n === 0) return 'no fields';
  return `${n} ${n === 1 ? 'field' : 'fields'}`;
}

/** What an audit target names, and where the console shows it (when it does, for this caller). */
export interface TargetView {
  readonly kind: 'job' | 'run' | 'user' | 'token' | 'group' | 'bootstrap' | 'other';
  readonly id: string;
  readonly label: string;
  readonly href?: string;
}

/** `job#7` → the job's page; `run#…` → the run's; `user#ana` and `token#…` → their lists (admins only). */
export function targetView(target: string, admin: boolean): TargetView {
  if (target === 'bootstrap' || target.startsWith('bootstrap#')) {
    return { kind: 'bootstrap', id: '', label: 'bootstrap token' };
  }
  const hash = target.indexOf('#');
  if (hash <= 0) return { kind: 'other', id: target, label: target };
  const kind = target.slice(0, hash);
  const id = target.slice(hash + 1);
  const q = encodeURIComponent(id);
  switch (kind) {
    case 'job':
      return { kind, id, label: `job ${id}`, href: `/jobs/${q}` };
    case 'run':
      return { kind, id, label: `run ${id}`, href: `/runs/${q}` };
    case 'group':
      return { kind, id, label: `group ${id}`, href: `/jobs?appName=${q}` };
    case 'user':
      return admin
        ? { kind, id, label: `user ${id}`, href: `/users?q=${q}` }
        : { kind, id, label: `user ${id}` };
    case 'token':
      return admin
        ? { kind, id, label: `token ${id}`, href: `/tokens?q=${q}` }
        : { kind, id, label: `token ${id}` };
    default:
      return { kind: 'other', id: target, label: target };
  }
}

/** The actions the server records (for the filter's suggestions; `job.*` takes every job action). */
export const AUDIT_ACTIONS: readonly string[] = [
  'job.*',
  'job.create',
  'job.update',
  'job.delete',
  'job.start',
  'job.stop',
  'job.trigger',
  'run.kill',
  'group.*',
  'group.create',
  'group.update',
  'group.delete',
  'group.accessToken.set',
  'group.accessToken.clear',
  'user.*',
  'user.create',
  'user.update',
  'user.password',
  'user.delete',
  'token.*',
  'token.create',
  'token.revoke',
  'bootstrap.rotate',
];
