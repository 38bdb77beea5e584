import { silentLogger } from '@tickring/core/common';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import {
  clientAddress,
  EDGE_SECRET_HEADER,
  isFromEdge,
  parseViewerAddress,
  VIEWER_ADDRESS_HEADER,
  withClientAddress,
} from './client-address.js';
import { createHttpHandler } from './handler.js';
import { fromApiGatewayV2, type HttpRequest } from './request.js';
import { ok } from './response.js';
import { Router } from './router.js';

const SECRET = 'Edg3SecretEdg3SecretEdg3SecretEdg3Secret';
/** An edge server's address: what API Gateway reports for a request through CloudFront. */
const EDGE = '64.252.122.10';

function request(headers: Record<string, string>, sourceIp = EDGE): HttpRequest {
  return {
    method: 'POST',
    path: '/v1/sessions',
    query: {},
    headers,
    rawBody: '',
    requestId: 'r1',
    sourceIp,
    clientIp: sourceIp,
  };
}

const throughEdge = (viewer: string | undefined, extra: Record<string, string> = {}) =>
  request({
    [EDGE_SECRET_HEADER]: SECRET,
    ...(viewer === undefined ? {} : { [VIEWER_ADDRESS_HEADER]: viewer }),
    ...extra,
  });

describe('parseViewerAddress (CloudFront-Viewer-Address: ip:port)', () => {
  it.each([
    ['198.51.100.7:46532', '198.51.100.7'],
    ['203.0.113.9:0', '203.0.113.9'],
    [' 203.0.113.9:443 ', '203.0.113.9'],
    ['2001:db8::1:443', '2001:db8::1'],
    ['2001:0db8:85a3:0000:0000:8a2e:0370:7334:46532', '2001:0db8:85a3:0000:0000:8a2e:0370:7334'],
    ['::1:8080', '::1'],
    ['::ffff:192.0.2.1:443', '::ffff:192.0.2.1'],
    ['[2001:db8::1]:443', '2001:db8::1'],
  ])('reads %s as %s (the port after the last colon)', (value, ip) => {
    expect(parseViewerAddress(value)).toBe(ip);
  });

  it.each([
    [undefined],
    [''],
    ['198.51.100.7'],
    ['198.51.100.7:'],
    [':443'],
    ['198.51.100.7:65536'],
    ['198.51.100.7:123456'],
    ['198.51.100.7:44x'],
    ['198.51.100.7:-1'],
    ['198.51.100:443'],
    ['256.1.1.1:443'],
    ['example.com:443'],
    ['2001:db8::1'],
    ['2001:db8:::1:443'],
    ['[198.51.100.7]:443'],
    ['[2001:db8::1:443'],
    ['198.51.100.7:443, 203.0.113.9:443'],
    ['198.51.100.7:443,203.0.113.9:443'],
    ['198.51.100.7 :443'],
  ])('refuses %s', (value) => {
    expect(parseViewerAddress(value)).toBeUndefined();
  });
});

describe('clientAddress', () => {
  it('is the viewer address CloudFront reports when the request carries the edge secret', () => {
    expect(clientAddress(throughEdge('198.51.100.7:46532'), SECRET)).toBe('198.51.100.7');
    expect(clientAddress(throughEdge('2001:db8::1:443'), SECRET)).toBe('2001:db8::1');
    expect(clientAddress(throughEdge('2001:db8:0:0:1::7:61000'), SECRET)).toBe('2001:db8:0:0:1::7');
  });

  it('is the gateway source address when the viewer address is missing or malformed, even with the secret', () => {
    expect(clientAddress(throughEdge(undefined), SECRET)).toBe(EDGE);
    expect(clientAddress(throughEdge('not-an-address'), SECRET)).toBe(EDGE);
    expect(clientAddress(throughEdge('198.51.100.7'), SECRET)).toBe(EDGE);
    expect(clientAddress(throughEdge('198.51.100.7:1, 203.0.113.9:2'), SECRET)).toBe(EDGE);
  });

  it('never reads X-Forwarded-For, even through the edge', () => {
    expect(clientAddress(throughEdge(undefined, { 'x-forwarded-for': '198.51.100.7' }), SECRET)).toBe(EDGE);
  });

  it.each([
    ['missing', {}],
    ['wrong', { [EDGE_SECRET_HEADER]: 'guess' }],
    ['wrong by one character', { [EDGE_SECRET_HEADER]: `${SECRET.slice(0, -1)}x` }],
    ['longer', { [EDGE_SECRET_HEADER]: `${SECRET}x` }],
    ['empty', { [EDGE_SECRET_HEADER]: '' }],
  ])(
    'is the gateway source address when the secret is %s, whatever CloudFront-Viewer-Address and X-Forwarded-For say',
    (_label, secretHeader) => {
      const forged = request({
        ...secretHeader,
        [VIEWER_ADDRESS_HEADER]: '198.51.100.7:443',
        'x-forwarded-for': '198.51.100.8, 64.252.122.10',
        'x-real-ip': '198.51.100.9',
      });
      expect(clientAddress(forged, SECRET)).toBe(EDGE);
    },
  );

  it('is the gateway source address when no secret is configured (the local stack), whatever the headers say', () => {
    const forged = throughEdge('198.51.100.7:443', { 'x-forwarded-for': '198.51.100.8' });
    expect(clientAddress(forged, undefined)).toBe(EDGE);
    // An empty configured secret proves nothing either, not even to a request sending it empty.
    expect(
      clientAddress(request({ [EDGE_SECRET_HEADER]: '', [VIEWER_ADDRESS_HEADER]: '198.51.100.7:1' }), ''),
    ).toBe(EDGE);
    expect(isFromEdge({ [EDGE_SECRET_HEADER]: '' }, '')).toBe(false);
  });

  it('is empty when the gateway knew no address and nothing proves one', () => {
    expect(clientAddress(request({ [VIEWER_ADDRESS_HEADER]: '198.51.100.7:1' }, ''), SECRET)).toBe('');
  });
});

describe('withClientAddress', () => {
  it('sets clientIp, keeps sourceIp, and drops the edge secret header', () => {
    const req = withClientAddress(throughEdge('198.51.100.7:46532', { 'user-agent': 'ua' }), SECRET);
    expect(req.clientIp).toBe('198.51.100.7');
    expect(req.sourceIp).toBe(EDGE);
    expect(req.headers).toEqual({ [VIEWER_ADDRESS_HEADER]: '198.51.100.7:46532', 'user-agent': 'ua' });
  });

  it('drops a wrong edge secret header too, and any when none is configured', () => {
    const wrong = withClientAddress(request({ [EDGE_SECRET_HEADER]: 'guess', a: '1' }), SECRET);
    expect(wrong).toMatchObject({ clientIp: EDGE, headers: { a: '1' } });
    expect(EDGE_SECRET_HEADER in wrong.headers).toBe(false);
    const local = withClientAddress(throughEdge('198.51.100.7:1'), undefined);
    expect(local.clientIp).toBe(EDGE);
    expect(EDGE_SECRET_HEADER in local.headers).toBe(false);
  });

  it('leaves a request without the header as it is but for clientIp', () => {
    const req = request({ a: '1' });
    expect(withClientAddress(req, SECRET)).toEqual(req);
  });
});

describe('fromApiGatewayV2', () => {
  it('believes no header: clientIp is the gateway source address', () => {
    const req = fromApiGatewayV2(
      event({ [VIEWER_ADDRESS_HEADER]: '198.51.100.7:1', [EDGE_SECRET_HEADER]: SECRET }),
    );
    expect(req.sourceIp).toBe(EDGE);
    expect(req.clientIp).toBe(EDGE);
  });
});

function event(headers: Record<string, string>, sourceIp = EDGE): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: 'ANY /v1/{proxy+}',
    rawPath: '/v1/where',
    rawQueryString: '',
    headers,
    requestContext: { http: { method: 'GET', path: '/v1/where', sourceIp }, requestId: 'r1' },
    isBase64Encoded: false,
  } as unknown as APIGatewayProxyEventV2;
}

const edgeHeaders = (viewer: string) => ({ [EDGE_SECRET_HEADER]: SECRET, [VIEWER_ADDRESS_HEADER]: viewer });

describe('createHttpHandler with an edge secret', () => {
  const seen: HttpRequest[] = [];
  const errors: unknown[] = [];
  const handlerWith = (edgeSecret?: () => Promise<string> | string) =>
    createHttpHandler({
      router: new Router().add('GET', '/v1/where', (req) => {
        seen.push(req);
        return ok({ clientIp: req.clientIp });
      }),
      logger: { ...silentLogger, error: (_m, attrs) => errors.push(attrs) },
      ...(edgeSecret ? { edgeSecret } : {}),
    });
  const clientIpOf = async (handler: ReturnType<typeof handlerWith>, headers: Record<string, string>) =>
    (JSON.parse((await handler(event(headers))).body ?? '{}') as { clientIp: string }).clientIp;

  it('gives the routes the viewer address of a request with the secret, without the secret header', async () => {
    seen.length = 0;
    const handler = handlerWith(async () => SECRET);
    const headers = { [EDGE_SECRET_HEADER]: SECRET, [VIEWER_ADDRESS_HEADER]: '2001:db8::7:51000' };
    expect(await clientIpOf(handler, headers)).toBe('2001:db8::7');
    expect(seen[0]?.headers).toEqual({ [VIEWER_ADDRESS_HEADER]: '2001:db8::7:51000' });
    expect(await clientIpOf(handler, { [VIEWER_ADDRESS_HEADER]: '198.51.100.7:1' })).toBe(EDGE);
    expect(await clientIpOf(handler, { ...headers, [EDGE_SECRET_HEADER]: 'guess' })).toBe(EDGE);
  });

  it('reads the secret only for a request that carries the edge secret header', async () => {
    let reads = 0;
    const handler = handlerWith(() => {
      reads++;
      return SECRET;
    });
    expect(await clientIpOf(handler, { [VIEWER_ADDRESS_HEADER]: '198.51.100.7:1' })).toBe(EDGE);
    expect(reads).toBe(0);
    expect(await clientIpOf(handler, edgeHeaders('198.51.100.7:1'))).toBe('198.51.100.7');
    expect(reads).toBe(1);
  });

  it('believes no header without a configured secret', async () => {
    const handler = handlerWith();
    const headers = { [EDGE_SECRET_HEADER]: SECRET, [VIEWER_ADDRESS_HEADER]: '198.51.100.7:1' };
    expect(await clientIpOf(handler, headers)).toBe(EDGE);
  });

  it('goes on with the gateway address when the secret cannot be read, logging why but never a header', async () => {
    errors.length = 0;
    const handler = handlerWith(async () => {
      throw new Error('AccessDeniedException');
    });
    const headers = { [EDGE_SECRET_HEADER]: SECRET, [VIEWER_ADDRESS_HEADER]: '198.51.100.7:1' };
    expect(await clientIpOf(handler, headers)).toBe(EDGE);
    expect(errors).toHaveLength(1);
    expect(JSON.stringify(errors)).toContain('AccessDeniedException');
    expect(JSON.stringify(errors)).not.toContain(SECRET);
  });
});
