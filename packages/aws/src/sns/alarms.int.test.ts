import { SubscribeCommand } from '@aws-sdk/client-sns';
import { CreateQueueCommand, GetQueueAttributesCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { silentLogger } from '@tickring/core/common';
import { makeJob, makeRun } from '@tickring/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedResources, type TestResources } from '../../../../test/stand-ins.js';
import { createAlarmPublisher } from './alarms.js';

describe('createAlarmPublisher on the SNS stand-in', () => {
  let env: TestResources;
  let inboxUrl: string;

  beforeAll(async () => {
    env = await isolatedResources('alarm');
    const { QueueUrl = '' } = await env.clients.sqs.send(
      new CreateQueueCommand({ QueueName: `${env.prefix}inbox` }),
    );
    inboxUrl = QueueUrl;
    const { Attributes } = await env.clients.sqs.send(
      new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['QueueArn'] }),
    );
    await env.clients.sns.send(
      new SubscribeCommand({
        TopicArn: env.resources.alarmTopicArn,
        Protocol: 'sqs',
        Endpoint: Attributes?.QueueArn,
      }),
    );
  });
  afterAll(() => env?.close());

  it('publishes the alarm JSON to the topic with a subject and jobId/appName attributes', async () => {
    const publisher = createAlarmPublisher({
      sns: env.clients.sns,
      topicArn: env.resources.alarmTopicArn,
      logger: silentLogger,
    });
    const delivered = await publisher.publish({
      job: makeJob({ id: 12, appName: 'billing' }),
      run: makeRun({ logId: 34, jobId: 12, handleCode: 500, handleMsg: 'disk full' }),
      summary: 'Job 12 (job 12) of billing failed: log 34, trigger 200, handle 500',
    });
    expect(delivered).toBe(true);
    const { Messages = [] } = await env.clients.sqs.send(
      new ReceiveMessageCommand({ QueueUrl: inboxUrl, WaitTimeSeconds: 5 }),
    );
    const envelope = JSON.parse(Messages[0]?.Body ?? '{}') as {
      Subject?: string;
      Message?: string;
      MessageAttributes?: Record<string, { Value: string }>;
    };
    expect(envelope.Subject).toBe('tickring alarm: job 12 failed (log 34)');
    expect(envelope.MessageAttributes?.appName?.Value).toBe('billing');
    expect(JSON.parse(envelope.Message ?? '{}')).toMatchObject({
      type: 'tickring.alarm',
      job: { id: 12, appName: 'billing' },
      run: { logId: 34, handleMsg: 'disk full' },
    });
  });

  it('reports the alarm as not delivered when the topic does not exist', async () => {
    const publisher = createAlarmPublisher({
      sns: env.clients.sns,
      topicArn: `${env.resources.alarmTopicArn}-missing`,
      logger: silentLogger,
    });
    expect(
      await publisher.publish({ job: makeJob({ id: 1 }), run: makeRun({ logId: 1 }), summary: 's' }),
    ).toBe(false);
  });
});
