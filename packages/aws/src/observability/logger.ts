import { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import type { LogAttributes, Logger } from '@tickring/core/common';

/**
 * One structured JSON logger per function (Powertools). Messages are constant strings and the data
 * goes in keys (jobId, logId, scheduledTime), so one run can be followed across functions.
 */
export function createFunctionLogger(serviceName: string): Logger & { raw: PowertoolsLogger } {
  const raw = new PowertoolsLogger({ serviceName });
  const call =
    (level: 'debug' | 'info' | 'warn' | 'error') =>
    (message: string, attributes?: LogAttributes): void => {
      if (attributes) raw[level](message, attributes);
      else raw[level](message);
    };
  return { raw, debug: call('debug'), info: call('info'), warn: call('warn'), error: call('error') };
}
