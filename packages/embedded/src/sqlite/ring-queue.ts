import { type Clock, systemClock, ValidationError } from '@tickring/core/common';
import {
  type FireMessage,
  MAX_DELAY_SECONDS,
  packRingMessages,
  parseRingMessage,
  type RingBacklog,
  type RingEntry,
  type RingGauge,
  type RingLane,
  type RingQueue,
} from '@tickring/core/dispatch';
import type { EmbeddedDatabase } from './database.js';

/** Told of each committed send on a database, in this process: the lane and when its first message is visible. */
export type RingSendListener = (lane: RingLane, visibleAt: number) => void;

/** Listeners by database: every SqliteRingQueue on one connection (the stack's functions and its pollers) shares them. */
const sendListeners = new WeakMap<EmbeddedDatabase, Set<RingSendListener>>();

/** Messages one receive hands out when not told (SQS's most per receive). */
const DEFAULT_RECEIVE_MAX = 10;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS ring_messages (
  -- AUTOINCREMENT: an id is never reused, so a message id (and a receipt) names one message ever.
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  lane TEXT NOT NULL,
  body TEXT NOT NULL,
  sent_at INTEGER NOT NULL,
  -- Epoch ms from which a receive sees it: after its delay, again after each visibility timeout.
  visible_at INTEGER NOT NULL,
  -- The token of the last receive; its receipt deletes the message.
  receive_token TEXT,
  receive_count INTEGER NOT NULL DEFAULT 0,
  first_received_at INTEGER
);
CREATE INDEX IF NOT EXISTS ring_messages_by_lane ON ring_messages (lane, visible_at, id);
`;

/** A ring message as a consumer receives it. */
export interface SqliteRingDelivery {
  /** The message's id, unique for the life of the database. */
  readonly messageId: string;
  /** As sent: a JSON array of fires (see `packRingMessages`). */
  readonly body: string;
  /** The fires of the body. */
  readonly fires: FireMessage[];
  /** Deletes the message (see `delete`); a later receive of it makes this one stale. */
  readonly receipt: string;
  /** How often the message was received, this time included (for a dead-letter rule). */
  readonly receiveCount: number;
  /** Epoch ms it was sent, and first received. */
  readonly sentAt: number;
  readonly firstReceivedAt: number;
}

export interface SqliteRingReceiveOptions {
  /** Most messages handed out (default 10). */
  readonly max?: number;
  /** How long each is hidden from other receives unless deleted. */
  readonly visibilitySeconds: number;
}

interface ReceivedRow {
  [column: string]: string | number | null;
  id: number;
  body: string;
  sent_at: number;
  receive_token: string;
  receive_count: number;
  first_received_at: number;
}

/**
 * The durable time ring in the embedded database, one table for both lanes, with SQS's rules: a
 * message is hidden for its delay; a received one for the visibility timeout the consumer asked
 * for, and comes back (its receive count one more) unless deleted with the receipt of its last
 * receive. Fires travel packed as on SQS (see `packRingMessages`). A committed enqueue survives a
 * crash of the process, and so does a receive: a message received but not deleted before a crash
 * comes back once its visibility timeout has passed. A receive is one UPDATE … RETURNING, so two
 * consumers (in this process or another on the same file) never get the same message at once.
 */
export class SqliteRingQueue implements RingQueue, RingGauge {
  private readonly clock: Clock;

  constructor(private readonly options: { database: EmbeddedDatabase; clock?: Clock }) {
    options.database.ensureSchema('ring_messages', SCHEMA);
    this.clock = options.clock ?? systemClock;
  }

  /** All entries or none (one transaction); a delay outside 0..900 whole seconds is refused, as SQS does. */
  async enqueue(entries: readonly RingEntry[]): Promise<void> {
    for (const entry of entries) {
      const delay = entry.delaySeconds;
      if (!Number.isInteger(delay) || delay < 0 || delay > MAX_DELAY_SECONDS) {
        throw new RangeError(`a ring delay is 0 to ${MAX_DELAY_SECONDS} whole seconds; got ${delay}`);
      }
    }
    const messages = packRingMessages(
      entries,
      (e) => ({ lane: e.lane, delaySeconds: e.delaySeconds }),
      (k) => `${k.lane}#${k.delaySeconds}`,
    );
    if (messages.length === 0) return;
    const now = this.clock.now();
    const { database } = this.options;
    const insert = database.db.prepare(
      'INSERT INTO ring_messages (lane, body, sent_at, visible_at) VALUES (?, ?, ?, ?)',
    );
    database.transaction(() => {
      for (const { key, body } of messages) insert.run(key.lane, body, now, now + key.delaySeconds * 1000);
    });
    const listeners = sendListeners.get(database);
    if (!listeners) return;
    const firstByLane = new Map<RingLane, number>();
    for (const { key } of messages) {
      const visibleAt = now + key.delaySeconds * 1000;
      firstByLane.set(key.lane, Math.min(visibleAt, firstByLane.get(key.lane) ?? visibleAt));
    }
    for (const listener of listeners) for (const [lane, at] of firstByLane) listener(lane, at);
  }

  /**
   * Calls `listener` after each committed send through any SqliteRingQueue on this database in this
   * process (a consumer wakes at once instead of at its next poll; sends of other processes on the
   * file it still finds by polling). Returns the unsubscribe.
   */
  onSent(listener: RingSendListener): () => void {
    const { database } = this.options;
    let listeners = sendListeners.get(database);
    if (!listeners) {
      listeners = new Set();
      sendListeners.set(database, listeners);
    }
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  /** Up to `max` of the lane's messages visible now, oldest due first, each then hidden for the visibility timeout. */
  async receive(lane: RingLane, options: SqliteRingReceiveOptions): Promise<SqliteRingDelivery[]> {
    const max = Math.max(1, Math.floor(options.max ?? DEFAULT_RECEIVE_MAX));
    if (!Number.isFinite(options.visibilitySeconds) || options.visibilitySeconds < 0) {
      throw new RangeError(`a visibility timeout is 0 seconds or more; got ${options.visibilitySeconds}`);
    }
    const now = this.clock.now();
    const rows = this.options.database.db
      .prepare(
        'UPDATE ring_messages SET visible_at = ?, receive_token = lower(hex(randomblob(8))), ' +
          'receive_count = receive_count + 1, first_received_at = COALESCE(first_received_at, ?) ' +
          'WHERE id IN (SELECT id FROM ring_messages WHERE lane = ? AND visible_at <= ? ' +
          'ORDER BY visible_at, id LIMIT ?) ' +
          'RETURNING id, body, sent_at, receive_token, receive_count, first_received_at',
      )
      .all<ReceivedRow>(now + options.visibilitySeconds * 1000, now, lane, now, max);
    return rows
      .sort((a, b) => a.id - b.id)
      .map((row) => ({
        messageId: String(row.id),
        body: row.body,
        fires: parseRingMessage(row.body).fires,
        receipt: `${row.id}.${row.receive_token}`,
        receiveCount: row.receive_count,
        sentAt: row.sent_at,
        firstReceivedAt: row.first_received_at,
      }));
  }

  /**
   * Deletes the message received with `receipt`: the consumer is done with it. False when the
   * receipt is stale (the message was received again since, or is gone), as SQS may leave it then.
   */
  async delete(receipt: string): Promise<boolean> {
    const match = /^(\d+)\.([0-9a-f]{16})$/.exec(receipt);
    if (!match) throw new ValidationError('not a receipt of this ring', 'receipt');
    const { changes } = this.options.database.db
      .prepare('DELETE FROM ring_messages WHERE id = ? AND receive_token = ?')
      .run(Number(match[1]), match[2] as string);
    return changes > 0;
  }

  /**
   * Every message received and not deleted comes back `byMs` sooner than its visibility timeout
   * said (not before now; in either lane), keeping its receive count: for a consumer that starts
   * alone on the file (the local stack, under its data directory's lock), whose predecessor died
   * holding them. How many it moved.
   */
  async returnHeldSooner(byMs: number): Promise<number> {
    if (!(byMs > 0)) return 0;
    const now = this.clock.now();
    const { changes } = this.options.database.db
      .prepare(
        'UPDATE ring_messages SET visible_at = MAX(?, visible_at - ?) ' +
          'WHERE receive_token IS NOT NULL AND visible_at > ?',
      )
      .run(now, byMs, now);
    return changes;
  }

  async backlog(): Promise<RingBacklog> {
    const now = this.clock.now();
    const row = this.options.database.db
      .prepare(
        'SELECT COALESCE(SUM(visible_at <= ?), 0) AS waiting, ' +
          'COALESCE(SUM(receive_token IS NOT NULL AND visible_at > ?), 0) AS in_flight ' +
          "FROM ring_messages WHERE lane = 'fast'",
      )
      .get<{ waiting: number; in_flight: number }>(now, now);
    return { waiting: row?.waiting ?? 0, inFlight: row?.in_flight ?? 0 };
  }

  /**
   * When the lane's next message becomes visible (epoch ms; at or before now when one is visible
   * already), undefined when the lane is empty: a poller sleeps until then.
   */
  async nextVisibleAt(lane: RingLane): Promise<number | undefined> {
    const row = this.options.database.db
      .prepare('SELECT MIN(visible_at) AS next FROM ring_messages WHERE lane = ?')
      .get<{ next: number | null }>(lane);
    return row?.next ?? undefined;
  }
}
