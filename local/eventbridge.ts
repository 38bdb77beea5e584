import type { Logger } from '@tickring/core/common';
import { scheduledEvent } from './events.js';
import type { BackgroundHealth } from './health.js';
import type { LambdaHost } from './lambda-host.js';

export interface RateRuleOptions {
  readonly host: LambdaHost;
  readonly region: string;
  readonly ruleName: string;
  readonly functionName: string;
  readonly periodMs: number;
  /** Targets per firing: the tick rule has two, so a standby is always running. */
  readonly targets: number;
  readonly logger: Logger;
  /** Told of each invocation's failure (and success), so `/health` can say what keeps failing. */
  readonly background?: Pick<BackgroundHealth, 'succeeded' | 'failed'>;
  /** Sees each successful invocation's result. */
  readonly onResult?: (result: unknown) => void;
}

/** An EventBridge `rate(...)` rule: fires at start and then every period, one invocation per target. */
export class RateRule {
  private timer: NodeJS.Timeout | undefined;
  private readonly running = new Set<Promise<unknown>>();

  constructor(private readonly options: RateRuleOptions) {}

  start(): void {
    this.fire();
    this.timer = setInterval(() => this.fire(), this.options.periodMs);
  }

  /** Stops firing; invocations in flight are left to the host's drain. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private fire(): void {
    const { host, region, ruleName, functionName, targets, logger, background, onResult } = this.options;
    const check = `scheduled invocation of ${functionName}`;
    for (let i = 0; i < targets; i++) {
      const run = host.invoke(functionName, scheduledEvent(region, ruleName)).then(
        (result) => {
          background?.succeeded(check);
          onResult?.(result);
        },
        (err) => {
          logger.error('scheduled invocation failed', { functionName, error: String(err) });
          background?.failed(check, String(err));
        },
      );
      this.running.add(run);
      void run.finally(() => this.running.delete(run));
    }
  }
}
