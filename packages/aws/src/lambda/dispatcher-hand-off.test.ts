import type { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { type FireMessage, isHandedOffFires } from '@tickring/core/dispatch';
import { describe, expect, it } from 'vitest';
import { LambdaDispatcherHandOff, MAX_EVENT_PAYLOAD_BYTES } from './dispatcher-hand-off.js';

/** A LambdaClient that records each Invoke and answers `statusCode`. */
function fakeLambda(statusCode: number) {
  const calls: InvokeCommand['input'][] = [];
  const lambda = {
    send: async (command: InvokeCommand) => {
      calls.push(command.input);
      return { StatusCode: statusCode };
    },
  } as unknown as LambdaClient;
  return { lambda, calls };
}

const fire = (node: string, param = ''): FireMessage => ({
  jobId: 7,
  scheduledTime: 1_800_000_000_000,
  triggerType: 'WORKFLOW',
  dedupKey: `wf#wr-1#${node}#1`,
  workflow: { runId: 'wr-1', node, attempt: 1 },
  decidedAt: 1_800_000_000_000,
  ...(param ? { executorParam: param } : {}),
});

describe('LambdaDispatcherHandOff', () => {
  it('invokes the dispatcher asynchronously with the handed-off event of the fires', async () => {
    const { lambda, calls } = fakeLambda(202);
    const handOff = new LambdaDispatcherHandOff({ lambda, functionName: 'tickring-dispatcher' });

    await handOff.handOff([fire('b'), fire('c')]);

    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ FunctionName: 'tickring-dispatcher', InvocationType: 'Event' });
    const event = JSON.parse(Buffer.from(calls[0]?.Payload as Uint8Array).toString('utf8'));
    expect(isHandedOffFires(event)).toBe(true);
    expect(event.fires).toEqual([fire('b'), fire('c')]);
  });

  it('throws when Lambda does not accept the event, so the engine puts the fires on the ring', async () => {
    const { lambda } = fakeLambda(200);
    const handOff = new LambdaDispatcherHandOff({ lambda, functionName: 'tickring-dispatcher' });

    await expect(handOff.handOff([fire('b')])).rejects.toThrow(
      'the asynchronous invoke of tickring-dispatcher answered StatusCode 200',
    );
  });

  it('refuses fires too big for one asynchronous invocation without calling Lambda', async () => {
    const { lambda, calls } = fakeLambda(202);
    const handOff = new LambdaDispatcherHandOff({ lambda, functionName: 'tickring-dispatcher' });

    await expect(handOff.handOff([fire('b', 'x'.repeat(MAX_EVENT_PAYLOAD_BYTES))])).rejects.toThrow(
      /more than an asynchronous invocation takes/,
    );
    expect(calls).toEqual([]);
  });
});
