import type { Page } from '../jobs/job-store.js';
import type { AlarmKind } from '../runs/alarms.js';
import type { Alert, AlertSilence, AlertState } from './alert.js';
import type { AlertChannel } from './alert-channel.js';

export interface AlertQuery {
  readonly jobId?: number;
  readonly kind?: AlarmKind;
  readonly state?: AlertState;
  /** firstAt from (inclusive) and to (exclusive), epoch ms. */
  readonly from?: number;
  readonly to?: number;
  readonly limit: number;
  readonly cursor?: string;
}

/**
 * Alert channels, silences and alerts (the outbox the delivery sweep works through and the history
 * the API lists). Channels and alerts change only at the revision the writer read.
 */
export interface AlertStore {
  /** ConflictError when the id is taken. */
  createChannel(channel: AlertChannel): Promise<void>;
  getChannel(id: string): Promise<AlertChannel | undefined>;
  /** Every channel, by id (a few dozen at most). */
  listChannels(): Promise<AlertChannel[]>;
  /** ConflictError when the stored one is not at `expectedRevision`, NotFoundError when it is gone. */
  updateChannel(next: AlertChannel, expectedRevision: number): Promise<void>;
  /** NotFoundError when it is not there. */
  deleteChannel(id: string): Promise<void>;

  createSilence(silence: AlertSilence): Promise<void>;
  /** Every silence, by id. */
  listSilences(): Promise<AlertSilence[]>;
  /** NotFoundError when it is not there. */
  deleteSilence(id: string): Promise<void>;

  /** ConflictError when an alert with its id (the same condition and window) exists. */
  createAlert(alert: Alert): Promise<void>;
  getAlert(id: string): Promise<Alert | undefined>;
  /** ConflictError when the stored one is not at `expectedRevision`, NotFoundError when it is gone. */
  updateAlert(next: Alert, expectedRevision: number): Promise<void>;
  /** Alerts with `dueAt` before `beforeMs`, earliest first, at most `limit`. */
  listDueAlerts(beforeMs: number, limit: number): Promise<Alert[]>;
  /**
   * Alerts newest first (by firstAt, then id), filtered, page by page. A page may hold fewer than
   * `limit` alerts (even none) while a `nextCursor` says more may follow.
   */
  listAlerts(query: AlertQuery): Promise<Page<Alert>>;
}
