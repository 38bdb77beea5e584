import type { RegistryParam } from '@tickring/protocol';
import type { AdminClient } from './admin-client.js';
import type { ExecutorLogger } from './logger.js';

export interface RegistryBeatOptions {
  admin: Pick<AdminClient, 'call'>;
  appName: string;
  address: string;
  intervalMs: number;
  logger: ExecutorLogger;
}

/**
 * XXL-JOB's ExecutorRegistryThread: `api/registry` at start and every `intervalMs` (the admin drops an
 * executor not seen for 90 s), `api/registryRemove` on stop.
 */
export class RegistryBeat {
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;
  private readonly param: RegistryParam;

  constructor(private readonly opts: RegistryBeatOptions) {
    this.param = { registryGroup: 'EXECUTOR', registryKey: opts.appName, registryValue: opts.address };
  }

  start(): void {
    this.timer = setInterval(() => void this.beat(), this.opts.intervalMs);
    this.timer.unref();
    void this.beat();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.inFlight;
    const result = await this.opts.admin.call('registryRemove', this.param);
    if (!result.ok)
      this.opts.logger.warn('registryRemove not accepted by any admin', { detail: result.detail });
  }

  private beat(): Promise<void> {
    this.inFlight ??= (async () => {
      const result = await this.opts.admin.call('registry', this.param);
      if (result.ok) this.opts.logger.debug('registered', { admin: result.address, ...this.param });
      else this.opts.logger.warn('registry not accepted by any admin', { detail: result.detail });
    })().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }
}
