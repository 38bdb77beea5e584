import type { ExecutorTarget, ExecutorTransport } from '@tickring/core/executors';
import type { ReturnT } from '@tickring/protocol';
import { describe, expect, it } from 'vitest';
import { SchemeExecutorTransport } from './executor-transport.js';
import { isLambdaAddress, lambdaFunctionName } from './lambda-transport.js';

function recorder(name: string, calls: string[]): ExecutorTransport {
  const reply = async (what: string, { address }: ExecutorTarget): Promise<ReturnT<unknown>> => {
    calls.push(`${name}:${what}:${address}`);
    return { code: 200 };
  };
  return {
    run: (target) => reply('run', target),
    beat: (target) => reply('beat', target),
    idleBeat: (target) => reply('idleBeat', target),
    kill: (target) => reply('kill', target),
    log: async ({ address }) => {
      calls.push(`${name}:log:${address}`);
      return { code: 200 };
    },
  };
}

const at = (address: string) => ({ address, appName: 'demo-app' });

describe('SchemeExecutorTransport', () => {
  it('sends lambda: addresses to Lambda and http(s) addresses to the XXL-JOB HTTP protocol', async () => {
    const calls: string[] = [];
    const transport = new SchemeExecutorTransport({
      http: recorder('http', calls),
      lambda: recorder('lambda', calls),
    });
    await transport.beat(at('lambda:executor-runner'));
    await transport.idleBeat(at('http://10.0.0.1:9999/'), 1);
    await transport.kill(at('HTTPS://executor.example.com/'), 1);
    await transport.log(at('lambda:arn:aws:lambda:us-east-1:123456789012:function:fn'), 1, 2, 1);
    expect(calls).toEqual([
      'lambda:beat:lambda:executor-runner',
      'http:idleBeat:http://10.0.0.1:9999/',
      'http:kill:HTTPS://executor.example.com/',
      'lambda:log:lambda:arn:aws:lambda:us-east-1:123456789012:function:fn',
    ]);
  });

  it('answers an address of no known scheme with a failed call naming it', async () => {
    const calls: string[] = [];
    const transport = new SchemeExecutorTransport({
      http: recorder('http', calls),
      lambda: recorder('lambda', calls),
    });
    const reply = await transport.beat(at('10.0.0.1:9999'));
    expect(reply).toEqual({
      code: 500,
      msg: 'unsupported executor address "10.0.0.1:9999": expected http(s)://host:port/ or lambda:<function>',
    });
    expect(calls).toEqual([]);
  });

  it('reads the function of a lambda: address', () => {
    expect(isLambdaAddress(' lambda:fn')).toBe(true);
    expect(isLambdaAddress('http://lambda:9999/')).toBe(false);
    expect(lambdaFunctionName('lambda:arn:aws:lambda:us-east-1:123456789012:function:fn:live')).toBe(
      'arn:aws:lambda:us-east-1:123456789012:function:fn:live',
    );
  });
});
