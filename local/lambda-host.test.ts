import { silentLogger } from '@tickring/core/common';
import type { ScheduledEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { RateRule } from './eventbridge.js';
import { LambdaHost, LambdaTimeoutError } from './lambda-host.js';

describe('LambdaHost', () => {
  it('passes an AWS-shaped scheduled event and a Lambda-like context to the handler', async () => {
    const host = new LambdaHost('eu-west-1');
    const seen: { event: ScheduledEvent; remaining: number; requestId: string; arn: string }[] = [];
    host.register({
      name: 'probe',
      timeoutMs: 5_000,
      handler: async (event: ScheduledEvent, context) => {
        seen.push({
          event,
          remaining: context.getRemainingTimeInMillis(),
          requestId: context.awsRequestId,
          arn: context.invokedFunctionArn,
        });
      },
    });
    const rule = new RateRule({
      host,
      region: 'eu-west-1',
      ruleName: 'every-minute',
      functionName: 'probe',
      periodMs: 60_000,
      targets: 2,
      logger: silentLogger,
    });
    rule.start();
    rule.stop();
    await host.drain(1_000);
    expect(seen).toHaveLength(2);
    const [first] = seen;
    expect(first?.event).toMatchObject({
      'detail-type': 'Scheduled Event',
      source: 'aws.events',
      region: 'eu-west-1',
      resources: ['arn:aws:events:eu-west-1:000000000000:rule/every-minute'],
      detail: {},
    });
    expect(first?.event.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(first?.remaining).toBeGreaterThan(4_000);
    expect(first?.remaining).toBeLessThanOrEqual(5_000);
    expect(first?.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(first?.requestId).not.toBe(seen[1]?.requestId);
    expect(first?.arn).toBe('arn:aws:lambda:eu-west-1:000000000000:function:probe');
  });

  it("fails an invocation that runs past its timeout with Lambda's message", async () => {
    const host = new LambdaHost('us-east-1');
    host.register({ name: 'slow', timeoutMs: 50, handler: () => new Promise((r) => setTimeout(r, 1_000)) });
    await expect(host.invoke('slow', {})).rejects.toThrow(LambdaTimeoutError);
    await expect(host.invoke('slow', {})).rejects.toThrow('slow: Task timed out after 0.05 seconds');
  });
});
