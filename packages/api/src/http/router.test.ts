import { NotFoundError } from '@tickring/core/common';
import { describe, expect, it } from 'vitest';
import { MethodNotAllowedError } from './errors.js';
import { ok } from './response.js';
import { Router } from './router.js';

describe('Router', () => {
  const router = new Router()
    .get('/v1/jobs', () => ok('list'))
    .get('/v1/jobs/{id}', (req) => ok(`get ${req.params.id}`))
    .put('/v1/jobs/{id}', (req) => ok(`put ${req.params.id}`))
    .post('/v1/jobs/{id}/start', (req) => ok(`start ${req.params.id}`));

  it('matches literal and parameterised paths, decoding parameters', async () => {
    const m = router.match('GET', '/v1/jobs/a%20b');
    expect(m.params).toEqual({ id: 'a b' });
    expect(await m.handler({ params: m.params } as never)).toEqual({ status: 200, body: 'get a b' });
    expect(router.match('GET', '/v1/jobs/').params).toEqual({});
  });

  it('prefers the method that matches among routes of the same pattern', () => {
    expect(router.match('PUT', '/v1/jobs/3').params).toEqual({ id: '3' });
    expect(router.match('post', '/v1/jobs/3/start').params).toEqual({ id: '3' });
  });

  it('throws NotFoundError for a path no route matches', () => {
    expect(() => router.match('GET', '/v1/nothing')).toThrow(NotFoundError);
    expect(() => router.match('GET', '/v1/jobs/3/start/now')).toThrow(NotFoundError);
  });

  it('throws MethodNotAllowedError listing the methods the path allows', () => {
    try {
      router.match('DELETE', '/v1/jobs/3');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(MethodNotAllowedError);
      expect((err as MethodNotAllowedError).allow).toEqual(['GET', 'PUT']);
    }
  });
});
