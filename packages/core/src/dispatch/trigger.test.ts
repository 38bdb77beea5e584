import { describe, expect, it } from 'vitest';
import { ValidationError } from '../common/errors.js';
import {
  type FireMessage,
  MAX_FIRES_PER_MESSAGE,
  MAX_RING_MESSAGE_BYTES,
  packRingMessages,
  parseRingMessage,
  scheduledDedupKey,
} from './trigger.js';

const fire = (jobId: number, scheduledTime = 1_900_000_000_000, extra: Partial<FireMessage> = {}) => ({
  jobId,
  scheduledTime,
  triggerType: 'CRON' as const,
  dedupKey: scheduledDedupKey(jobId, scheduledTime),
  scheduleRevision: 1,
  ...extra,
});

interface Entry {
  message: FireMessage;
  lane: string;
  delaySeconds: number;
}
const pack = (entries: Entry[]) =>
  packRingMessages(
    entries,
    (e) => `${e.lane}#${e.delaySeconds}`,
    (k) => k,
  );

describe('packRingMessages', () => {
  it('puts the fires of one lane and delay in one message, and different delays or lanes apart', () => {
    const messages = pack([
      { message: fire(1), lane: 'fast', delaySeconds: 4 },
      { message: fire(2), lane: 'fast', delaySeconds: 4 },
      { message: fire(3), lane: 'fast', delaySeconds: 5 },
      { message: fire(4), lane: 'slow', delaySeconds: 4 },
    ]);
    expect(messages.map((m) => [m.key, m.fires.map((f) => f.jobId)])).toEqual([
      ['fast#4', [1, 2]],
      ['fast#5', [3]],
      ['slow#4', [4]],
    ]);
    for (const m of messages) expect(parseRingMessage(m.body)).toEqual({ fires: m.fires, rejected: [] });
  });

  it(`splits a group at ${MAX_FIRES_PER_MESSAGE} fires and at ${MAX_RING_MESSAGE_BYTES} bytes, keeping every fire once`, () => {
    const many = Array.from({ length: 2 * MAX_FIRES_PER_MESSAGE + 1 }, (_, i) => ({
      message: fire(i + 1),
      lane: 'fast',
      delaySeconds: 1,
    }));
    expect(pack(many).map((m) => m.fires.length)).toEqual([MAX_FIRES_PER_MESSAGE, MAX_FIRES_PER_MESSAGE, 1]);

    const bulky = Array.from({ length: 10 }, (_, i) => ({
      message: fire(i + 1, 1, { executorParam: 'x'.repeat(5_000) }),
      lane: 'fast',
      delaySeconds: 0,
    }));
    const messages = pack(bulky);
    expect(messages.length).toBeGreaterThan(1);
    for (const m of messages) expect(Buffer.byteLength(m.body)).toBeLessThanOrEqual(MAX_RING_MESSAGE_BYTES);
    expect(messages.flatMap((m) => m.fires.map((f) => f.jobId))).toEqual(bulky.map((e) => e.message.jobId));
  });

  it('sends a fire bigger than the byte limit alone rather than dropping it', () => {
    const huge = {
      message: fire(1, 1, { executorParam: 'y'.repeat(30_000) }),
      lane: 'fast',
      delaySeconds: 0,
    };
    expect(
      pack([huge, { message: fire(2), lane: 'fast', delaySeconds: 0 }]).map((m) => m.fires.length),
    ).toEqual([1, 1]);
  });
});

describe('parseRingMessage', () => {
  it('reads an array of fires, and a single fire object (messages sent before fires were grouped)', () => {
    const retry = {
      jobId: 1,
      scheduledTime: 1,
      triggerType: 'RETRY',
      dedupKey: 'retry#1',
      retry: { attempt: 2, ofLogId: 1, retriesLeft: 0, shard: { index: 0, total: 2, address: 'http://a/' } },
    };
    expect(parseRingMessage(JSON.stringify([fire(1), retry]))).toEqual({
      fires: [fire(1), retry],
      rejected: [],
    });
    expect(parseRingMessage(JSON.stringify(fire(7)))).toEqual({ fires: [fire(7)], rejected: [] });
  });

  it.each(['not json', '1', 'null', '"text"'])('rejects the body %s as a whole', (body) => {
    expect(() => parseRingMessage(body)).toThrow(ValidationError);
  });

  it.each([
    ['1', 'body'],
    ['{"scheduledTime":1,"triggerType":"CRON","dedupKey":"k"}', 'jobId'],
    ['{"jobId":1,"scheduledTime":"soon","triggerType":"CRON","dedupKey":"k"}', 'scheduledTime'],
    ['{"jobId":1,"scheduledTime":1,"triggerType":"WHENEVER","dedupKey":"k"}', 'triggerType'],
    ['{"jobId":1,"scheduledTime":1,"triggerType":"CRON","dedupKey":""}', 'dedupKey'],
    ['{"jobId":1,"scheduledTime":1,"triggerType":"CRON","dedupKey":"k","addressList":"a,b"}', 'addressList'],
    ['{"jobId":1,"scheduledTime":1,"triggerType":"WORKFLOW","dedupKey":"k","appName":7}', 'appName'],
    [
      '{"jobId":1,"scheduledTime":1,"triggerType":"RETRY","dedupKey":"k","retry":{"attempt":2}}',
      'retry.ofLogId',
    ],
  ])('drops the malformed fire %s (naming %s) and keeps the others', (bad, field) => {
    const { fires, rejected } = parseRingMessage(
      `[${JSON.stringify(fire(1))},${bad},${JSON.stringify(fire(2))}]`,
    );
    expect(fires.map((f) => f.jobId)).toEqual([1, 2]);
    expect(rejected).toHaveLength(1);
    expect(rejected[0]).toBeInstanceOf(ValidationError);
    expect(rejected[0]?.field).toBe(field);
  });
});
