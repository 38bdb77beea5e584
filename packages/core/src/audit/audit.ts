/**
 * The audit log: one record per accepted change, saying when, who, from where, what and the
 * before/after of the changed fields (secrets redacted).
 */

/** What a change is about. */
export const AUDIT_TARGET_KINDS = [
  'group',
  'job',
  'run',
  'workflow',
  'workflowRun',
  'calendar',
  'backfill',
  'alertChannel',
  'alertSilence',
  'user',
  'token',
  'bootstrap',
] as const;
export type AuditTargetKind = (typeof AUDIT_TARGET_KINDS)[number];

/**
 * How a route's accepted request is written to the audit log (a route without one changes
 * nothing). The target's id is the path parameter of its kind (group `appName`, job `id`, run
 * `logId`, workflow `id`, workflow run `runId`, calendar `id`, backfill `id`, user `username`, token `id`), or, for a creation,
 * that field of the answer (a workflow run's: `id`).
 */
export interface AuditSpec {
  /** The action recorded, e.g. `job.update`. */
  readonly action: string;
  readonly target: AuditTargetKind;
  /** Where the target's id is: the request path (default), the answer (a creation), or the caller (their own account). */
  readonly idFrom?: 'path' | 'result' | 'caller';
}

/**
 * A target as the log names it: `job#7`, `group#billing`, `user#ana`, `token#<id>`, `run#<logId>`,
 * `workflow#3`, `workflowRun#wr-…`, `bootstrap`.
 */
export function auditTarget(kind: AuditTargetKind, id?: string | number): string {
  if (id === undefined || id === '') {
    if (kind === 'bootstrap') return kind;
    throw new TypeError(`an audit target of kind ${kind} needs an id`);
  }
  return `${kind}#${id}`;
}

/** What a target string names (undefined when it is not one {@link auditTarget} makes). */
export function parseAuditTarget(target: string): { kind: AuditTargetKind; id?: string } | undefined {
  const at = target.indexOf('#');
  const kind = at < 0 ? target : target.slice(0, at);
  const id = at < 0 ? undefined : target.slice(at + 1);
  if (!(AUDIT_TARGET_KINDS as readonly string[]).includes(kind)) return undefined;
  if (id === undefined) return kind === 'bootstrap' ? { kind } : undefined;
  return id === '' ? undefined : { kind: kind as AuditTargetKind, id };
}

/**
 * What made a change: a principal's kind, `anonymous` for none (no route of the API makes such a
 * change today), or `system`: the scheduler itself (a schedule that stopped itself at its end).
 */
export const AUDIT_ACTOR_KINDS = ['bootstrap', 'session', 'token', 'anonymous', 'system'] as const;

/** Who made a change: the principal as it was then. */
export interface AuditActor {
  readonly kind: (typeof AUDIT_ACTOR_KINDS)[number];
  /** The username, the token's id, or `bootstrap`. */
  readonly id: string;
  /** The username, `token:<name>`, or `bootstrap`. */
  readonly name: string;
  /** The session's or token's id (absent for the bootstrap token). */
  readonly credentialId?: string;
}

/** Where a change came from. */
export interface AuditSource {
  readonly ip: string;
  readonly userAgent: string;
}

/** One changed field: its value before and after; a side is absent when the field was (a creation, a deletion, a new field). */
export interface FieldChange {
  readonly before?: unknown;
  readonly after?: unknown;
}

/** The changed top-level fields of a target, by name. */
export type AuditChanges = Readonly<Record<string, FieldChange>>;

/** A change as it is written to the log (the log gives it its id). */
export interface AuditEntry {
  /** When the change was accepted, epoch ms. */
  readonly at: number;
  readonly actor: AuditActor;
  readonly source: AuditSource;
  /** e.g. `job.update`. */
  readonly action: string;
  /** e.g. `job#7` (see {@link auditTarget}). */
  readonly target: string;
  /** The target's executor group, when it has one: who may read the record besides admins. */
  readonly appName?: string;
  /** The changed fields only, secrets redacted. */
  readonly changes: AuditChanges;
  /** What the change took besides the target's fields (a trigger's overrides, the runs it made), secrets redacted. */
  readonly detail?: Readonly<Record<string, unknown>>;
  /** The API request that made the change. */
  readonly requestId: string;
}

/** A change as the log keeps it. */
export interface AuditRecord extends AuditEntry {
  /** Unique and time-ordered (a ULID): records of the same millisecond each have their own. */
  readonly id: string;
}

type Fields = Readonly<Record<string, unknown>>;

/**
 * The top-level fields that differ between two views of a target, each with its value before and
 * after. Values are compared deeply (arrays and objects as values); a field absent (or undefined)
 * on one side is listed with that side left out; `null` for a whole side means none (a creation:
 * every field of `after`; a deletion: every field of `before`). A side that is not an object
 * (an array, a string) counts as the one field `value`.
 */
export function diffFields(before: unknown, after: unknown): AuditChanges {
  const was = fieldsOf(before);
  const is = fieldsOf(after);
  const changes: Record<string, FieldChange> = {};
  for (const name of new Set([...Object.keys(was), ...Object.keys(is)])) {
    const b = was[name];
    const a = is[name];
    if (deepEqual(b, a)) continue;
    changes[name] = { ...(b === undefined ? {} : { before: b }), ...(a === undefined ? {} : { after: a }) };
  }
  return changes;
}

/** Whether a value is an object of fields (not null, an array or a Date). */
export function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** A view's fields: an object's own; none for null or undefined; anything else as the one field `value`. */
function fieldsOf(view: unknown): Fields {
  if (view === null || view === undefined) return {};
  return isFields(view) ? view : { value: view };
}

/** Deep equality of JSON-like values: arrays by their elements in order, objects by their defined fields. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'number' && typeof b === 'number') return Number.isNaN(a) && Number.isNaN(b);
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, i) => deepEqual(item, b[i]))
    );
  }
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  }
  const aFields = a as Fields;
  const bFields = b as Fields;
  const aKeys = Object.keys(aFields).filter((k) => aFields[k] !== undefined);
  const bKeys = Object.keys(bFields).filter((k) => bFields[k] !== undefined);
  return aKeys.length === bKeys.length && aKeys.every((k) => deepEqual(aFields[k], bFields[k]));
}

/** What a secret's value is replaced by. */
export const REDACTED = '[redacted]';

/**
 * Field names whose values are secrets, as the end of the name (case and `_`/`-` ignored):
 * password, passwordHash, newPassword, token, accessToken, tokenHash, secret, secretHash,
 * clientSecret, tokenKey, apiKey, privateKey. Not `accessTokenSetAt`, `tokenId`, `tokens`.
 */
const SECRET_NAME_ENDINGS = [
  'password',
  'passwordhash',
  'token',
  'tokenhash',
  'tokenkey',
  'secret',
  'secrethash',
  'apikey',
  'privatekey',
] as const;

/** Whether a field of this name holds a secret. */
export function isSecretName(name: string): boolean {
  const normalized = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  return SECRET_NAME_ENDINGS.some((ending) => normalized.endsWith(ending));
}

/**
 * A copy of `value` with the value of every field named like a secret (see {@link isSecretName}),
 * at any depth (in objects and arrays), replaced by {@link REDACTED}. `null` stays `null` (that a
 * secret was cleared is no secret). The input is not changed.
 */
export function redactSecrets<T>(value: T): T {
  return redact(value, new WeakSet()) as T;
}

/** A field's value, redacted as a whole when its name is a secret's. */
function redactField(name: string, value: unknown, seen: WeakSet<object>): unknown {
  if (isSecretName(name) && value !== null && value !== undefined) return REDACTED;
  return redact(value, seen);
}

function redact(value: unknown, seen: WeakSet<object>): unknown {
  if (typeof value !== 'object' || value === null || value instanceof Date) return value;
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => redact(item, seen));
    return Object.fromEntries(
      Object.entries(value).map(([name, field]) => [name, redactField(name, field, seen)]),
    );
  } finally {
    seen.delete(value);
  }
}

/** The changes with secrets redacted: a secret field's sides, and secrets nested in any field's values. */
export function redactChanges(changes: AuditChanges): AuditChanges {
  const seen = new WeakSet<object>();
  return Object.fromEntries(
    Object.entries(changes).map(([name, change]) => [
      name,
      {
        ...('before' in change ? { before: redactField(name, change.before, seen) } : {}),
        ...('after' in change ? { after: redactField(name, change.after, seen) } : {}),
      },
    ]),
  );
}
