import { randomBytes } from 'node:crypto';
import { type DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditActor, AuditChanges, AuditEntry, AuditRecord } from '@tickring/core/audit';
import {
  AUDIT_ID_PATTERN,
  AUDIT_ID_RANDOM_CHARS,
  type AuditLog,
  type AuditQuery,
  auditId,
  auditIdRange,
  auditTimeRange,
  checkAuditAppNames,
  checkAuditRange,
  invalidAuditCursor,
  timeOfAuditId,
} from '@tickring/core/audit';
import { type Clock, systemClock } from '@tickring/core/common';
import type { Page } from '@tickring/core/jobs';
import { AUDIT_BY_TARGET_INDEX } from '../topology/tables.js';
import { decodeCursor, type Item, isConditionFailed } from './util.js';

const DAY_MS = 86_400_000;
/** Query rounds one `list` makes before it answers with a cursor (an empty day costs one). */
const MAX_LIST_ROUNDS = 32;
/** Items one filtered query round reads at least (the filters apply after the read). */
const FILTERED_ROUND_SIZE = 100;
/** Attempts at a fresh id when one is taken (two random 80-bit parts alike: never, in practice). */
const MAX_PUT_ATTEMPTS = 3;
/**
 * Most bytes of a record's changes (and of its detail) as stored: DynamoDB items hold 400 KB, and
 * a job's GLUE source alone may be 100,000 characters on each side. Longer strings are cut until
 * the JSON fits.
 */
const MAX_CHANGES_BYTES = 300_000;
const MAX_DETAIL_BYTES = 50_000;

export interface DynamoAuditLogOptions {
  readonly doc: DynamoDBDocumentClient;
  readonly auditTable: string;
  /** Records expire (DynamoDB TTL) this many days after the change; lists look no further back. */
  readonly retentionDays: number;
  /** "Now" of the default time range and the retention bound. */
  readonly clock?: Clock;
  /** Random bytes for the ids (tests may fix them). */
  readonly random?: (size: number) => Uint8Array;
}

/**
 * The audit table: each record in its UTC day's partition (`pk` = `day#YYYY-MM-DD`, `sk` = its id,
 * a ULID: time then randomness, so a day reads newest first and records of the same millisecond
 * each keep their own item), also under its target (index `byTarget`: `target`, `sk`). The changes
 * and detail are kept as JSON text.
 */
export class DynamoAuditLog implements AuditLog {
  private readonly clock: Clock;
  private readonly random: (size: number) => Uint8Array;

  constructor(private readonly options: DynamoAuditLogOptions) {
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? randomBytes;
  }

  async append(entry: AuditEntry): Promise<AuditRecord> {
    for (let attempt = 1; ; attempt++) {
      const id = auditId(entry.at, this.random(AUDIT_ID_RANDOM_CHARS));
      try {
        await this.options.doc.send(
          new PutCommand({
            TableName: this.options.auditTable,
            Item: this.toItem(id, entry),
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        );
        return { id, ...entry };
      } catch (err) {
        if (!isConditionFailed(err) || attempt >= MAX_PUT_ATTEMPTS) throw err;
      }
    }
  }

  async list(query: AuditQuery): Promise<Page<AuditRecord>> {
    checkAuditRange(query);
    const position = decodePosition(query.cursor, query.target);
    if (query.appNames !== undefined && query.appNames.length === 0) return { items: [] };
    const { from, to } = auditTimeRange(query, this.clock.now(), this.options.retentionDays);
    if (from > to) return { items: [] };
    const { low, high } = auditIdRange(from, to);
    const reader: ListReader = {
      limit: Math.max(1, query.limit),
      low,
      high,
      lastDay: dayOf(from),
      filter: filterOf(query),
    };
    return query.target === undefined
      ? this.listByDay(
          reader,
          position?.kind === 'day' ? position : ({ kind: 'day', day: dayOf(to) } as const),
        )
      : this.listByTarget(reader, query.target, position?.kind === 'target' ? position : undefined);
  }

  /** The records of one target, newest first, from its index. */
  private async listByTarget(
    reader: ListReader,
    target: string,
    position: { readonly sk: string; readonly pk: string } | undefined,
  ): Promise<Page<AuditRecord>> {
    // A cursor of the same list asked with another range: below it, the list is done; above it,
    // the range starts at its top.
    if (position && position.sk < reader.low) return { items: [] };
    let startKey: Item | undefined =
      position && position.sk <= reader.high ? { target, sk: position.sk, pk: position.pk } : undefined;
    const items: AuditRecord[] = [];
    for (let round = 0; round < MAX_LIST_ROUNDS; round++) {
      const result = await this.query(reader, items.length, startKey, {
        IndexName: AUDIT_BY_TARGET_INDEX,
        KeyConditionExpression: '#target = :target AND sk BETWEEN :low AND :high',
        names: { '#target': 'target' },
        values: { ':target': target },
      });
      const found = result.Items ?? [];
      for (const [index, item] of found.entries()) {
        items.push(fromItem(item));
        if (items.length < reader.limit) continue;
        if (index === found.length - 1 && result.LastEvaluatedKey === undefined) return { items };
        return { items, nextCursor: encodePosition({ kind: 'target', target, ...keyOf(item) }) };
      }
      if (result.LastEvaluatedKey === undefined) return { items };
      startKey = result.LastEvaluatedKey;
    }
    const last = startKey as Item;
    return { items, nextCursor: encodePosition({ kind: 'target', target, ...keyOf(last) }) };
  }

  /** All records (as the filters leave them), newest first, day partition by day partition back from `to`. */
  private async listByDay(
    reader: ListReader,
    position: Extract<Position, { kind: 'day' }>,
  ): Promise<Page<AuditRecord>> {
    let day = position.day;
    let startKey: Item | undefined =
      position.sk !== undefined && position.sk <= reader.high
        ? { pk: dayKey(day), sk: position.sk }
        : undefined;
    // A cursor of the same list asked with another range: below it, that day is done; above it,
    // the day is read from the range's top.
    if (position.sk !== undefined && position.sk < reader.low) day = previousDay(day);
    const items: AuditRecord[] = [];
    for (let round = 0; round < MAX_LIST_ROUNDS; round++) {
      if (day < reader.lastDay) return { items };
      const result = await this.query(reader, items.length, startKey, {
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :low AND :high',
        names: {},
        values: { ':pk': dayKey(day) },
      });
      const found = result.Items ?? [];
      for (const [index, item] of found.entries()) {
        items.push(fromItem(item));
        if (items.length < reader.limit) continue;
        const atEnd =
          index === found.length - 1 && result.LastEvaluatedKey === undefined && day === reader.lastDay;
        return atEnd
          ? { items }
          : { items, nextCursor: encodePosition({ kind: 'day', day, sk: String(item.sk) }) };
      }
      if (result.LastEvaluatedKey !== undefined) {
        startKey = result.LastEvaluatedKey;
        continue;
      }
      day = previousDay(day);
      startKey = undefined;
    }
    if (day < reader.lastDay) return { items };
    return {
      items,
      nextCursor: encodePosition({ kind: 'day', day, ...(startKey ? { sk: String(startKey.sk) } : {}) }),
    };
  }

  /** One query round: newest first, at most what the page still needs (more when filters apply). */
  private query(
    reader: ListReader,
    have: number,
    startKey: Item | undefined,
    key: {
      IndexName?: string;
      KeyConditionExpression: string;
      names: Record<string, string>;
      values: Record<string, unknown>;
    },
  ) {
    const { filter } = reader;
    const remaining = reader.limit - have;
    const names = { ...key.names, ...filter?.names };
    return this.options.doc.send(
      new QueryCommand({
        TableName: this.options.auditTable,
        ...(key.IndexName ? { IndexName: key.IndexName } : {}),
        KeyConditionExpression: key.KeyConditionExpression,
        ...(filter ? { FilterExpression: filter.expression } : {}),
        ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
        ExpressionAttributeValues: {
          ':low': reader.low,
          ':high': reader.high,
          ...key.values,
          ...filter?.values,
        },
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        ScanIndexForward: false,
        Limit: filter ? Math.max(remaining, FILTERED_ROUND_SIZE) : remaining,
      }),
    );
  }

  private toItem(id: string, entry: AuditEntry): Item {
    return {
      pk: dayKey(dayOf(entry.at)),
      sk: id,
      target: entry.target,
      at: entry.at,
      action: entry.action,
      actorKind: entry.actor.kind,
      actorId: entry.actor.id,
      actorName: entry.actor.name,
      actorCredentialId: entry.actor.credentialId,
      sourceIp: entry.source.ip,
      userAgent: entry.source.userAgent,
      appName: entry.appName,
      requestId: entry.requestId,
      changes: boundedJson(entry.changes, MAX_CHANGES_BYTES),
      detail: entry.detail === undefined ? undefined : boundedJson(entry.detail, MAX_DETAIL_BYTES),
      expiresAt: Math.floor(entry.at / 1000) + this.options.retentionDays * 86_400,
    };
  }
}

/** One list request: its query, bounds (as sort keys) and filter. */
interface ListReader {
  readonly limit: number;
  /** The sort keys of `from` and `to`: a record's key is between them when its time is. */
  readonly low: string;
  readonly high: string;
  /** The day partition of `from`: the last one read. */
  readonly lastDay: string;
  readonly filter: ReturnType<typeof filterOf>;
}

function dayOf(ms: number): string {
  return new Date(Math.max(0, ms)).toISOString().slice(0, 10);
}

function dayKey(day: string): string {
  return `day#${day}`;
}

function previousDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);
}

/** The filters of a query as a FilterExpression (undefined for none). */
function filterOf(
  query: AuditQuery,
): { expression: string; names: Record<string, string>; values: Record<string, unknown> } | undefined {
  const parts: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (query.actor !== undefined) {
    parts.push('(actorName = :actor OR actorId = :actor)');
    values[':actor'] = query.actor;
  }
  if (query.action !== undefined) {
    names['#action'] = 'action';
    if (query.action.endsWith('*')) {
      parts.push('begins_with(#action, :action)');
      values[':action'] = query.action.slice(0, -1);
    } else {
      parts.push('#action = :action');
      values[':action'] = query.action;
    }
  }
  if (query.appName !== undefined) {
    parts.push('appName = :appName');
    values[':appName'] = query.appName;
  }
  if (query.appNames !== undefined) {
    checkAuditAppNames(query);
    const placeholders = query.appNames.map((appName, i) => {
      values[`:g${i}`] = appName;
      return `:g${i}`;
    });
    parts.push(`appName IN (${placeholders.join(', ')})`);
  }
  if (query.onlyGrouped === true) parts.push('attribute_exists(appName)');
  if (parts.length === 0) return undefined;
  return { expression: parts.join(' AND '), names, values };
}

/**
 * Where a page stopped. By day: the day partition and, within it, the last key read (absent: the
 * day from its newest record). By target: the last key read in the target's index.
 */
type Position =
  | { readonly kind: 'day'; readonly day: string; readonly sk?: string }
  | { readonly kind: 'target'; readonly target: string; readonly sk: string; readonly pk: string };

function keyOf(item: Item): { sk: string; pk: string } {
  return { sk: String(item.sk), pk: String(item.pk) };
}

function encodePosition(position: Position): string {
  const json =
    position.kind === 'day'
      ? { d: position.day, ...(position.sk === undefined ? {} : { k: position.sk }) }
      : { t: position.target, k: position.sk, p: position.pk };
  return Buffer.from(JSON.stringify(json)).toString('base64url');
}

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** The position of a cursor, which must be one of a list like this one (by day, or of this target). */
function decodePosition(cursor: string | undefined, target: string | undefined): Position | undefined {
  const decoded = decodeCursor(cursor);
  if (decoded === undefined) return undefined;
  const { d, t, k, p } = decoded;
  // The key's day is its id's: a cursor whose parts disagree was not made here.
  const dayOfKey = typeof k === 'string' && AUDIT_ID_PATTERN.test(k) ? dayOf(timeOfAuditId(k)) : undefined;
  if (target === undefined && typeof d === 'string' && DAY_PATTERN.test(d) && t === undefined) {
    if (k === undefined) return { kind: 'day', day: d };
    if (dayOfKey === d) return { kind: 'day', day: d, sk: k as string };
  }
  if (target !== undefined && t === target && dayOfKey !== undefined && p === dayKey(dayOfKey)) {
    return { kind: 'target', target, sk: k as string, pk: p };
  }
  throw invalidAuditCursor(target);
}

function fromItem(item: Item): AuditRecord {
  const actor: AuditActor = {
    kind: item.actorKind as AuditActor['kind'],
    id: String(item.actorId),
    name: String(item.actorName),
    ...(typeof item.actorCredentialId === 'string' ? { credentialId: item.actorCredentialId } : {}),
  };
  return {
    id: String(item.sk),
    at: Number(item.at),
    actor,
    source: { ip: String(item.sourceIp ?? ''), userAgent: String(item.userAgent ?? '') },
    action: String(item.action),
    target: String(item.target),
    ...(typeof item.appName === 'string' ? { appName: item.appName } : {}),
    changes: JSON.parse(String(item.changes ?? '{}')) as AuditChanges,
    ...(typeof item.detail === 'string'
      ? { detail: JSON.parse(item.detail) as Readonly<Record<string, unknown>> }
      : {}),
    requestId: String(item.requestId ?? ''),
  };
}

/** JSON of `value` within `maxBytes`: its longest strings cut (and marked) until it fits. */
export function boundedJson(value: unknown, maxBytes: number): string {
  let json = JSON.stringify(value);
  for (let keep = longestString(value); Buffer.byteLength(json) > maxBytes && keep > 16; ) {
    keep = Math.floor(keep / 2);
    json = JSON.stringify(cutStrings(value, keep));
  }
  return json;
}

function longestString(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (typeof value !== 'object' || value === null) return 0;
  return Math.max(0, ...Object.values(value).map(longestString));
}

function cutStrings(value: unknown, keep: number): unknown {
  if (typeof value === 'string') {
    return value.length <= keep ? value : `${value.slice(0, keep)}… [${value.length - keep} more characters]`;
  }
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => cutStrings(item, keep));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cutStrings(v, keep)]));
}
