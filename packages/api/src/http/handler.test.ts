import { ConflictError, StoreUnavailableError, silentLogger, ValidationError } from '@tickring/core/common';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { bearerAuth, constantTimeEquals } from './auth.js';
import { createHttpHandler } from './handler.js';
import { created, ok } from './response.js';
import { Router } from './router.js';
import { RequestValidationError, type RouteContract } from './validation.js';

/** A contract whose validator reads `n` from the query, or refuses the request for every problem. */
const counted: RouteContract<Record<string, never>, { n: number }, unknown> = {
  method: 'GET',
  path: '/v1/count',
  authenticated: true,
  validate: (req) => {
    const problems = [];
    if (!/^\d+$/.test(req.query.n ?? '')) problems.push({ field: 'n', message: 'n must be an integer' });
    if (req.query.x !== undefined) problems.push({ field: 'x', message: 'x is not a parameter' });
    const [first, ...rest] = problems;
    if (first) throw new RequestValidationError([first, ...rest]);
    return { params: {}, query: { n: Number(req.query.n) }, body: undefined };
  },
};
const open: RouteContract<Record<string, never>, Record<string, string>, unknown> = {
  method: 'GET',
  path: '/v1/open',
  authenticated: false,
  validate: (req) => ({ params: {}, query: req.query, body: req.body }),
};

function event(method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}) {
  return {
    version: '2.0',
    routeKey: 'ANY /v1/{proxy+}',
    rawPath: path,
    rawQueryString: '',
    headers: { authorization: 'Bearer s3cret', ...init.headers },
    requestContext: { http: { method, path }, requestId: 'r1' },
    body: init.body,
    isBase64Encoded: false,
  } as unknown as APIGatewayProxyEventV2;
}

const errors: unknown[] = [];
const warnings: unknown[] = [];
const handler = createHttpHandler({
  router: new Router()
    .post('/v1/echo', (req) => created({ got: req.body }))
    .get('/v1/things/{name}', (req) => ok({ name: req.params.name }))
    .get('/v1/bad', () => {
      throw new ValidationError('limit must be an integer', 'limit');
    })
    .get('/v1/conflict', () => {
      throw new ConflictError('in use');
    })
    .get('/v1/boom', () => {
      throw new Error('secret detail');
    })
    .get('/v1/full', () => {
      throw new StoreUnavailableError('the database cannot take writes: database or disk is full', 30);
    })
    .route(counted, (req) => ok({ twice: req.query.n * 2 }))
    .route(open, () => ok({ open: true })),
  authenticate: bearerAuth(() => 's3cret'),
  logger: {
    ...silentLogger,
    error: (_m, attrs) => errors.push(attrs),
    warn: (_m, attrs) => warnings.push(attrs),
  },
});

const json = (body: string | undefined) => JSON.parse(body ?? '') as Record<string, unknown>;

describe('createHttpHandler', () => {
  it('routes, parses the JSON body and serialises the result', async () => {
    const res = await handler(event('POST', '/v1/echo', { body: '{"a":1}' }));
    expect(res.statusCode).toBe(201);
    expect(res.headers?.['content-type']).toBe('application/json');
    expect(json(res.body)).toEqual({ got: { a: 1 } });
  });

  it('ignores a trailing slash', async () => {
    const res = await handler(event('GET', '/v1/things/x/'));
    expect(json(res.body)).toEqual({ name: 'x' });
  });

  it('answers 400 naming body for malformed JSON', async () => {
    const res = await handler(event('POST', '/v1/echo', { body: '{"a":' }));
    expect(res.statusCode).toBe(400);
    expect(json(res.body)).toMatchObject({ error: 'ValidationError', field: 'body' });
  });

  it('maps app errors to their status with {error, message}; a ValidationError lists its problem', async () => {
    expect(json((await handler(event('GET', '/v1/bad'))).body)).toEqual({
      error: 'ValidationError',
      message: 'limit must be an integer',
      field: 'limit',
      problems: [{ field: 'limit', message: 'limit must be an integer' }],
    });
    const conflict = await handler(event('GET', '/v1/conflict'));
    expect(conflict.statusCode).toBe(409);
    expect(json(conflict.body)).toEqual({ error: 'ConflictError', message: 'in use' });
  });

  it('answers 404 for an unknown route and 405 with Allow for a wrong method', async () => {
    expect((await handler(event('GET', '/v1/nope'))).statusCode).toBe(404);
    const res = await handler(event('DELETE', '/v1/echo'));
    expect(res.statusCode).toBe(405);
    expect(res.headers?.allow).toBe('POST');
    expect(json(res.body).error).toBe('MethodNotAllowedError');
  });

  it('answers a store that cannot take writes with 503, what is wrong and when to try again, and logs it', async () => {
    const res = await handler(event('GET', '/v1/full'));
    expect(res.statusCode).toBe(503);
    expect(res.headers?.['retry-after']).toBe('30');
    expect(json(res.body)).toEqual({
      error: 'StoreUnavailableError',
      message: 'the database cannot take writes: database or disk is full',
    });
    expect(JSON.stringify(warnings.at(-1))).toContain('disk is full');
  });

  it('hides the detail of an unexpected error and logs it', async () => {
    const res = await handler(event('GET', '/v1/boom'));
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('secret detail');
    expect(JSON.stringify(errors.at(-1))).toContain('secret detail');
  });

  it.each([
    ['a missing header', {}],
    ['a wrong token', { authorization: 'Bearer nope' }],
    ['another scheme', { authorization: 'Basic s3cret' }],
    ['a bare token', { authorization: 's3cret' }],
  ])('answers 401 before routing for %s', async (_label, headers) => {
    const ev = event('GET', '/v1/nope');
    const res = await handler({ ...ev, headers: headers as Record<string, string> });
    expect(res.statusCode).toBe(401);
    expect(res.headers?.['www-authenticate']).toBe('Bearer');
    expect(json(res.body).error).toBe('UnauthorizedError');
  });

  it('validates a contract route before its handler, listing every problem', async () => {
    const query = (q: Record<string, string>) => ({ ...event('GET', '/v1/count'), queryStringParameters: q });
    expect(json((await handler(query({ n: '21' }))).body)).toEqual({ twice: 42 });
    const bad = await handler(query({ n: 'many', x: '1' }));
    expect(bad.statusCode).toBe(400);
    expect(json(bad.body)).toEqual({
      error: 'ValidationError',
      message: 'n must be an integer; x is not a parameter',
      field: 'n',
      problems: [
        { field: 'n', message: 'n must be an integer' },
        { field: 'x', message: 'x is not a parameter' },
      ],
    });
  });

  it('serves a public route without a token, and only that route', async () => {
    const ev = event('GET', '/v1/open');
    const res = await handler({ ...ev, headers: {} });
    expect(res.statusCode).toBe(200);
    expect((await handler({ ...event('POST', '/v1/open'), headers: {} })).statusCode).toBe(401);
    expect((await handler({ ...event('GET', '/v1/count'), headers: {} })).statusCode).toBe(401);
  });

  it('accepts the scheme in any case', async () => {
    const res = await handler(event('GET', '/v1/things/y', { headers: { authorization: 'bearer s3cret' } }));
    expect(res.statusCode).toBe(200);
  });

  it('refuses every token when the expected token is empty (fail closed)', async () => {
    const closed = bearerAuth(() => '');
    await expect(closed({ headers: { authorization: 'Bearer ' } } as never)).rejects.toThrow();
    await expect(closed({ headers: { authorization: 'Bearer x' } } as never)).rejects.toThrow(/not valid/);
  });
});

describe('constantTimeEquals', () => {
  it('compares strings of any length', () => {
    expect(constantTimeEquals('abc', 'abc')).toBe(true);
    expect(constantTimeEquals('abc', 'abcd')).toBe(false);
    expect(constantTimeEquals('', '')).toBe(true);
  });
});
