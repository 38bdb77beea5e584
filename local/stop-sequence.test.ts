import type { Logger } from '@tickring/core/common';
import { describe, expect, it } from 'vitest';
import { STOP_PHASE, StopSequence } from './stop-sequence.js';

function recordingLogger() {
  const warnings: { message: string; attributes?: Record<string, unknown> }[] = [];
  const logger: Logger = {
    debug: () => {},
    info: () => {},
    warn: (message, attributes) => warnings.push({ message, attributes }),
    error: () => {},
  };
  return { logger, warnings };
}

describe('the local stack’s stop order', () => {
  it('stops phase by phase, whatever order the steps were added in; within a phase the last added first', async () => {
    const order: string[] = [];
    const { logger } = recordingLogger();
    const stops = new StopSequence(logger);
    stops.add(STOP_PHASE.standIns, 'dynamodb', () => order.push('dynamodb'));
    stops.add(STOP_PHASE.gateway, 'gateway', () => order.push('gateway'));
    stops.add(STOP_PHASE.ring, 'poller fast', () => order.push('poller fast'));
    stops.add(STOP_PHASE.ring, 'poller slow', () => order.push('poller slow'));
    stops.add(STOP_PHASE.schedule, 'rules', () => order.push('rules'));
    stops.add(STOP_PHASE.executors, 'demo', () => order.push('demo'));
    await stops.run();
    expect(order).toEqual(['rules', 'poller slow', 'poller fast', 'demo', 'gateway', 'dynamodb']);
  });

  it('goes on past a step that fails or hangs, saying which, and runs each step once', async () => {
    const order: string[] = [];
    const { logger, warnings } = recordingLogger();
    const stops = new StopSequence(logger, 50);
    stops.add(STOP_PHASE.schedule, 'failing', () => {
      throw new Error('boom');
    });
    stops.add(STOP_PHASE.ring, 'hanging', () => new Promise(() => {}));
    stops.add(STOP_PHASE.standIns, 'last', () => order.push('last'));
    await stops.run();
    await stops.run();
    expect(order).toEqual(['last']);
    expect(warnings).toEqual([
      { message: 'stop step failed', attributes: { step: 'failing', error: 'Error: boom' } },
      { message: 'stop step timed out; going on', attributes: { step: 'hanging', timeoutMs: 50 } },
    ]);
  });
});
