import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HandleCallbackParam } from '@tickring/protocol';
import type { AdminClient } from './admin-client.js';
import { type ExecutorLogger, errorText } from './logger.js';

export interface CallbackSenderOptions {
  admin: Pick<AdminClient, 'call'>;
  /** `{logDir}/callbacklog` */
  spoolDir: string;
  retryIntervalMs: number;
  logger: ExecutorLogger;
  /** Most callbacks in one POST. */
  maxBatch?: number;
  /**
   * How long a result waits for others to share its POST (0: only those finished in the same tick).
   * Each POST is one callback invocation on the admin side, so a short wait cuts them under load.
   */
  lingerMs?: number;
}

const DEFAULT_MAX_BATCH = 100;
const SPOOL_PREFIX = 'tickring-callback-';
const SPOOL_SUFFIX = '.json';

interface SpoolFile {
  version: 1;
  callbacks: HandleCallbackParam[];
}

/**
 * Delivers results to the admin at least once (XXL-JOB's TriggerCallbackThread): results finished
 * within `lingerMs` of each other (or while a POST is in flight) are POSTed together as one JSON array; a batch no admin accepts is written to
 * `{logDir}/callbacklog/` as JSON and retried every `retryIntervalMs`, at start (so it survives a restart)
 * and as soon as a live delivery succeeds again. A spool file is deleted only after an admin accepted it.
 */
export class CallbackSender {
  private pending: HandleCallbackParam[] = [];
  private scheduled: NodeJS.Timeout | undefined;
  private pumping: Promise<void> | undefined;
  private retrying: Promise<void> | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private spooled = true;

  constructor(private readonly opts: CallbackSenderOptions) {}

  push(param: HandleCallbackParam): void {
    this.pending.push(param);
    if (this.pending.length >= (this.opts.maxBatch ?? DEFAULT_MAX_BATCH)) {
      void this.flush();
      return;
    }
    this.scheduled ??= setTimeout(() => {
      this.scheduled = undefined;
      void this.pump();
    }, this.opts.lingerMs ?? 0);
  }

  /** Starts the spool retry loop (and retries what an earlier process left behind right away). */
  start(): void {
    this.retryTimer = setInterval(() => void this.retrySpool(), this.opts.retryIntervalMs);
    this.retryTimer.unref();
    void this.retrySpool();
  }

  /** Sends (or spools) everything pending and stops the retry loop. */
  async stop(): Promise<void> {
    clearInterval(this.retryTimer);
    this.retryTimer = undefined;
    await this.flush();
    await this.retrying;
  }

  /** Sends everything pending now; what no admin accepts is spooled. */
  async flush(): Promise<void> {
    if (this.scheduled) {
      clearTimeout(this.scheduled);
      this.scheduled = undefined;
    }
    await this.pump();
  }

  /** Tries every spool file once, oldest first; stops at the first one no admin accepts. */
  retrySpool(): Promise<void> {
    this.retrying ??= this.retryOnce().finally(() => {
      this.retrying = undefined;
    });
    return this.retrying;
  }

  private pump(): Promise<void> {
    // A pump already past its last check of `pending` would miss what came since: go again after it.
    if (this.pumping) return this.pumping.then(() => (this.pending.length > 0 ? this.pump() : undefined));
    this.pumping = (async () => {
      const max = this.opts.maxBatch ?? DEFAULT_MAX_BATCH;
      while (this.pending.length > 0) {
        const batch = this.pending.splice(0, max);
        if (await this.deliver(batch)) {
          if (this.spooled) void this.retrySpool();
        } else {
          await this.spool(batch);
        }
      }
    })().finally(() => {
      this.pumping = undefined;
    });
    return this.pumping;
  }

  private async deliver(batch: HandleCallbackParam[]): Promise<boolean> {
    const result = await this.opts.admin.call('callback', batch);
    const logIds = batch.map((c) => c.logId);
    if (result.ok) this.opts.logger.debug('callback delivered', { logIds, admin: result.address });
    else this.opts.logger.warn('callback not accepted by any admin', { logIds, detail: result.detail });
    return result.ok;
  }

  private async spool(batch: HandleCallbackParam[]): Promise<void> {
    const name = `${SPOOL_PREFIX}${Date.now()}-${randomUUID()}${SPOOL_SUFFIX}`;
    const file = join(this.opts.spoolDir, name);
    const body: SpoolFile = { version: 1, callbacks: batch };
    try {
      await mkdir(this.opts.spoolDir, { recursive: true });
      await writeFile(`${file}.tmp`, JSON.stringify(body));
      await rename(`${file}.tmp`, file);
      this.spooled = true;
      this.opts.logger.warn('callbacks spooled for retry', { file, logIds: batch.map((c) => c.logId) });
    } catch (err) {
      this.opts.logger.error('callbacks could not be spooled and are lost', {
        file,
        callbacks: batch,
        error: errorText(err),
      });
    }
  }

  private async retryOnce(): Promise<void> {
    let names: string[];
    try {
      names = (await readdir(this.opts.spoolDir))
        .filter((n) => n.startsWith(SPOOL_PREFIX) && n.endsWith(SPOOL_SUFFIX))
        .sort();
    } catch {
      names = [];
    }
    if (names.length === 0) {
      this.spooled = false;
      return;
    }
    for (const name of names) {
      const file = join(this.opts.spoolDir, name);
      let callbacks: HandleCallbackParam[];
      try {
        const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<SpoolFile>;
        if (!Array.isArray(parsed.callbacks)) throw new Error('no callbacks array');
        callbacks = parsed.callbacks;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
        this.opts.logger.error('unreadable callback spool file set aside', { file, error: errorText(err) });
        await rename(file, `${file}.corrupt`).catch(() => undefined);
        continue;
      }
      if (callbacks.length > 0 && !(await this.deliver(callbacks))) return;
      await rm(file, { force: true });
    }
  }
}
