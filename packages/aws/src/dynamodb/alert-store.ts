import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import type { Alert, AlertChannel, AlertQuery, AlertSilence, AlertStore } from '@tickring/core/alerts';
import { ConflictError, encodePageCursor, NotFoundError, ValidationError } from '@tickring/core/common';
import type { Page } from '@tickring/core/jobs';
import { ALERTS_BY_JOB_INDEX, ALERTS_DUE_INDEX, ALERTS_FEED_INDEX } from '../topology/tables.js';
import { batchGetAll, decodeCursor, type Item, isConditionFailed } from './util.js';

/**
 * One table: channels in the `channel` partition and silences in `silence` (by id: few, admin
 * resources); each alert its own item (`A#{id}` / `alert`, the alert as a map) with the keys of three
 * indexes: `feed` + `order` (all alerts newest first), `jobId` + `order` (a job's), and, only while the
 * delivery sweep has work on it, `dueFeed` + `dueAt` (sparse, keys only: re-read strongly).
 */
const CHANNELS = 'channel';
const SILENCES = 'silence';
const ALERT_SK = 'alert';
const FEED = 'alert';
const DUE_FEED = 'due';

export class DynamoAlertStore implements AlertStore {
  constructor(private readonly options: { doc: DynamoDBDocumentClient; alertsTable: string }) {}

  async createChannel(channel: AlertChannel): Promise<void> {
    await this.putNew({ pk: CHANNELS, sk: channel.id, revision: channel.revision, channel }, () => {
      throw new ConflictError(`alert channel ${channel.id} already exists`);
    });
  }

  async getChannel(id: string): Promise<AlertChannel | undefined> {
    return (await this.get(CHANNELS, id))?.channel as AlertChannel | undefined;
  }

  async listChannels(): Promise<AlertChannel[]> {
    return (await this.partition(CHANNELS)).map((item) => item.channel as AlertChannel);
  }

  async updateChannel(next: AlertChannel, expectedRevision: number): Promise<void> {
    await this.putAt(
      { pk: CHANNELS, sk: next.id, revision: next.revision, channel: next },
      expectedRevision,
      'alert channel',
      next.id,
    );
  }

  async deleteChannel(id: string): Promise<void> {
    await this.deleteExisting(CHANNELS, id, `alert channel ${id} does not exist`);
  }

  async createSilence(silence: AlertSilence): Promise<void> {
    await this.putNew({ pk: SILENCES, sk: silence.id, silence }, () => {
      throw new ConflictError(`alert silence ${silence.id} already exists`);
    });
  }

  async listSilences(): Promise<AlertSilence[]> {
    return (await this.partition(SILENCES)).map((item) => item.silence as AlertSilence);
  }

  async deleteSilence(id: string): Promise<void> {
    await this.deleteExisting(SILENCES, id, `alert silence ${id} does not exist`);
  }

  async createAlert(alert: Alert): Promise<void> {
    await this.putNew(alertItem(alert), () => {
      throw new ConflictError(`alert ${alert.id} already exists`);
    });
  }

  async getAlert(id: string): Promise<Alert | undefined> {
    return (await this.get(`A#${id}`, ALERT_SK))?.alert as Alert | undefined;
  }

  async updateAlert(next: Alert, expectedRevision: number): Promise<void> {
    await this.putAt(alertItem(next), expectedRevision, 'alert', next.id);
  }

  async listDueAlerts(beforeMs: number, limit: number): Promise<Alert[]> {
    const { Items: keys = [] } = await this.options.doc.send(
      new QueryCommand({
        TableName: this.options.alertsTable,
        IndexName: ALERTS_DUE_INDEX,
        KeyConditionExpression: 'dueFeed = :due AND dueAt < :before',
        ExpressionAttributeValues: { ':due': DUE_FEED, ':before': beforeMs },
        Limit: limit,
      }),
    );
    const items = await batchGetAll(
      this.options.doc,
      this.options.alertsTable,
      keys.map((k) => ({ pk: k.pk, sk: k.sk })),
    );
    // The index lags the table: keep only what is still due, earliest first.
    return items
      .map((item) => item.alert as Alert)
      .filter((a) => a.dueAt !== undefined && a.dueAt < beforeMs)
      .sort((a, b) => (a.dueAt ?? 0) - (b.dueAt ?? 0) || (a.id < b.id ? -1 : 1));
  }

  /**
   * The history from the feed index, or a job's. A kind or a state is a FilterExpression: DynamoDB
   * reads the index in order and drops what does not match, so a read may find fewer than the page;
   * the page is filled by reading on (up to FILTERED_READS reads of FILTERED_EVALUATED alerts each),
   * its cursor the last alert answered, or where the reads stopped (a short page, even an empty one,
   * with a cursor: more may follow).
   */
  async listAlerts(query: AlertQuery): Promise<Page<Alert>> {
    const after = decodeCursor(query.cursor);
    if (after !== undefined && (typeof after.id !== 'string' || !Number.isSafeInteger(after.firstAt))) {
      throw new ValidationError('cursor is not a cursor of this query', 'cursor');
    }
    const limit = Math.max(1, Math.floor(query.limit));
    const byJob = query.jobId !== undefined;
    const names: Record<string, string> = { '#part': byJob ? 'jobId' : 'feed' };
    const values: Record<string, unknown> = { ':part': byJob ? query.jobId : FEED };
    let range = '';
    if (query.from !== undefined || query.to !== undefined) {
      // `to` is exclusive: BETWEEN's upper bound is the first order of that millisecond, which no alert has.
      values[':lo'] = orderOf(query.from ?? 0, '');
      values[':hi'] = query.to === undefined ? '~' : orderOf(query.to, '');
      names['#order'] = 'order';
      range = ' AND #order BETWEEN :lo AND :hi';
    }
    const filters: string[] = [];
    const filterOn = (field: 'kind' | 'state', value: string | undefined) => {
      if (value === undefined) return;
      names['#alert'] = 'alert';
      names[`#${field}`] = field;
      values[`:${field}`] = value;
      filters.push(`#alert.#${field} = :${field}`);
    };
    filterOn('kind', query.kind);
    filterOn('state', query.state);
    const input: QueryCommandInput = {
      TableName: this.options.alertsTable,
      IndexName: byJob ? ALERTS_BY_JOB_INDEX : ALERTS_FEED_INDEX,
      KeyConditionExpression: `#part = :part${range}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ScanIndexForward: false,
      Limit: filters.length > 0 ? Math.max(limit, FILTERED_EVALUATED) : limit,
      ...(filters.length > 0 ? { FilterExpression: filters.join(' AND ') } : {}),
    };
    const partition = byJob ? { jobId: query.jobId } : { feed: FEED };
    let start: Item | undefined =
      after === undefined
        ? undefined
        : {
            pk: `A#${after.id as string}`,
            sk: ALERT_SK,
            order: orderOf(after.firstAt as number, after.id as string),
            ...partition,
          };
    const found: Item[] = [];
    for (let reads = 1; ; reads++) {
      const page = await this.options.doc.send(new QueryCommand({ ...input, ExclusiveStartKey: start }));
      found.push(...((page.Items ?? []) as Item[]));
      start = page.LastEvaluatedKey;
      if (found.length >= limit) {
        const items = found.slice(0, limit);
        const more = found.length > limit || start !== undefined;
        const alerts = items.map((item) => item.alert as Alert);
        return more ? { items: alerts, nextCursor: cursorAt(items.at(-1)?.order) } : { items: alerts };
      }
      const alerts = found.map((item) => item.alert as Alert);
      if (!start) return { items: alerts };
      if (reads >= FILTERED_READS) return { items: alerts, nextCursor: cursorAt(start.order) };
    }
  }

  private async get(pk: string, sk: string): Promise<Item | undefined> {
    const { Item: item } = await this.options.doc.send(
      new GetCommand({ TableName: this.options.alertsTable, Key: { pk, sk }, ConsistentRead: true }),
    );
    return item;
  }

  private async partition(pk: string): Promise<Item[]> {
    const out: Item[] = [];
    let start: Item | undefined;
    do {
      const page = await this.options.doc.send(
        new QueryCommand({
          TableName: this.options.alertsTable,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': pk },
          ExclusiveStartKey: start,
          ConsistentRead: true,
        }),
      );
      out.push(...((page.Items ?? []) as Item[]));
      start = page.LastEvaluatedKey;
    } while (start);
    return out;
  }

  private async putNew(item: Item, refuse: () => never): Promise<void> {
    try {
      await this.options.doc.send(
        new PutCommand({
          TableName: this.options.alertsTable,
          Item: item,
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    } catch (err) {
      if (isConditionFailed(err)) refuse();
      throw err;
    }
  }

  private async putAt(item: Item, expectedRevision: number, what: string, id: string): Promise<void> {
    try {
      await this.options.doc.send(
        new PutCommand({
          TableName: this.options.alertsTable,
          Item: item,
          ConditionExpression: 'attribute_exists(pk) AND revision = :expected',
          ExpressionAttributeValues: { ':expected': expectedRevision },
        }),
      );
    } catch (err) {
      if (!isConditionFailed(err)) throw err;
      const current = await this.get(item.pk as string, item.sk as string);
      if (!current) throw new NotFoundError(`${what} ${id} does not exist`);
      throw new ConflictError(
        `${what} ${id} is at revision ${String(current.revision)}, not ${expectedRevision}`,
      );
    }
  }

  private async deleteExisting(pk: string, sk: string, notFound: string): Promise<void> {
    try {
      await this.options.doc.send(
        new DeleteCommand({
          TableName: this.options.alertsTable,
          Key: { pk, sk },
          ConditionExpression: 'attribute_exists(pk)',
        }),
      );
    } catch (err) {
      if (isConditionFailed(err)) throw new NotFoundError(notFound);
      throw err;
    }
  }
}

/** A filtered history page reads on this many times at most before it answers a short page. */
const FILTERED_READS = 5;
/** Alerts a filtered read evaluates (DynamoDB's Limit counts them before the filter). */
const FILTERED_EVALUATED = 100;

/** The history's cursor after the alert whose `order` (`{firstAt}#{id}`) this is. */
function cursorAt(order: unknown): string {
  const [firstAt, ...idParts] = String(order).split('#');
  return encodePageCursor({ firstAt: Number(firstAt), id: idParts.join('#') });
}

/** `order`: the first alarm's time, zero-padded to sort as text, then the id (unique). */
function orderOf(firstAt: number, id: string): string {
  return `${String(firstAt).padStart(15, '0')}#${id}`;
}

function alertItem(alert: Alert): Item {
  return {
    pk: `A#${alert.id}`,
    sk: ALERT_SK,
    feed: FEED,
    jobId: alert.jobId,
    order: orderOf(alert.firstAt, alert.id),
    revision: alert.revision,
    ...(alert.dueAt === undefined ? {} : { dueFeed: DUE_FEED, dueAt: alert.dueAt }),
    alert: structuredClone(alert),
  };
}
