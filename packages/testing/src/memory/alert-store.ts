import type { Alert, AlertChannel, AlertQuery, AlertSilence, AlertStore } from '@tickring/core/alerts';
import { ConflictError, NotFoundError } from '@tickring/core/common';
import type { Page } from '@tickring/core/jobs';
import { decodeCursor, pageOf } from './cursor.js';

/** Alert channels, silences and alerts in memory; channel and alert writes conditional on the revision. */
export class MemoryAlertStore implements AlertStore {
  readonly channels = new Map<string, AlertChannel>();
  readonly silences = new Map<string, AlertSilence>();
  readonly alerts = new Map<string, Alert>();

  async createChannel(channel: AlertChannel): Promise<void> {
    if (this.channels.has(channel.id)) throw new ConflictError(`alert channel ${channel.id} already exists`);
    this.channels.set(channel.id, structuredClone(channel));
  }

  async getChannel(id: string): Promise<AlertChannel | undefined> {
    const channel = this.channels.get(id);
    return channel && structuredClone(channel);
  }

  async listChannels(): Promise<AlertChannel[]> {
    return [...this.channels.values()].sort((a, b) => (a.id < b.id ? -1 : 1)).map((c) => structuredClone(c));
  }

  async updateChannel(next: AlertChannel, expectedRevision: number): Promise<void> {
    revisionCheck('alert channel', next.id, this.channels.get(next.id)?.revision, expectedRevision);
    this.channels.set(next.id, structuredClone(next));
  }

  async deleteChannel(id: string): Promise<void> {
    if (!this.channels.delete(id)) throw new NotFoundError(`alert channel ${id} does not exist`);
  }

  async createSilence(silence: AlertSilence): Promise<void> {
    if (this.silences.has(silence.id)) throw new ConflictError(`alert silence ${silence.id} already exists`);
    this.silences.set(silence.id, structuredClone(silence));
  }

  async listSilences(): Promise<AlertSilence[]> {
    return [...this.silences.values()].sort((a, b) => (a.id < b.id ? -1 : 1)).map((s) => structuredClone(s));
  }

  async deleteSilence(id: string): Promise<void> {
    if (!this.silences.delete(id)) throw new NotFoundError(`alert silence ${id} does not exist`);
  }

  async createAlert(alert: Alert): Promise<void> {
    if (this.alerts.has(alert.id)) throw new ConflictError(`alert ${alert.id} already exists`);
    this.alerts.set(alert.id, structuredClone(alert));
  }

  async getAlert(id: string): Promise<Alert | undefined> {
    const alert = this.alerts.get(id);
    return alert && structuredClone(alert);
  }

  async updateAlert(next: Alert, expectedRevision: number): Promise<void> {
    revisionCheck('alert', next.id, this.alerts.get(next.id)?.revision, expectedRevision);
    this.alerts.set(next.id, structuredClone(next));
  }

  async listDueAlerts(beforeMs: number, limit: number): Promise<Alert[]> {
    return [...this.alerts.values()]
      .filter((a) => a.dueAt !== undefined && a.dueAt < beforeMs)
      .sort((a, b) => (a.dueAt ?? 0) - (b.dueAt ?? 0) || (a.id < b.id ? -1 : 1))
      .slice(0, limit)
      .map((a) => structuredClone(a));
  }

  async listAlerts(query: AlertQuery): Promise<Page<Alert>> {
    const after = decodeCursor(query.cursor);
    const sorted = [...this.alerts.values()]
      .filter(
        (a) =>
          (query.jobId === undefined || a.jobId === query.jobId) &&
          (query.kind === undefined || a.kind === query.kind) &&
          (query.state === undefined || a.state === query.state) &&
          (query.from === undefined || a.firstAt >= query.from) &&
          (query.to === undefined || a.firstAt < query.to),
      )
      .sort(newestFirst)
      .filter((a) => after === undefined || newestFirst(a, after as { firstAt: number; id: string }) > 0)
      .map((a) => structuredClone(a));
    return pageOf(sorted, query.limit, (last) => ({ firstAt: last.firstAt, id: last.id }));
  }
}

function newestFirst(a: { firstAt: number; id: string }, b: { firstAt: number; id: string }): number {
  return b.firstAt - a.firstAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

function revisionCheck(what: string, id: string, stored: number | undefined, expected: number): void {
  if (stored === undefined) throw new NotFoundError(`${what} ${id} does not exist`);
  if (stored !== expected) throw new ConflictError(`${what} ${id} is at revision ${stored}, not ${expected}`);
}
