import { constantTimeEquals, UnauthorizedError } from '@tickring/core/common';
import type { HttpRequest } from './request.js';

export { constantTimeEquals };

/**
 * Checks a request's credentials; throws UnauthorizedError. What it returns (who the caller is)
 * reaches the route's handler as `req.auth`.
 */
export type Authenticator = (req: HttpRequest) => Promise<unknown> | unknown;

/**
 * The credentials of `Authorization: Bearer <credentials>`; UnauthorizedError when the header is
 * missing or not of that form.
 */
export function bearerCredentials(req: HttpRequest): string {
  const header = req.headers.authorization;
  if (header === undefined || header.trim() === '') {
    throw new UnauthorizedError('the Authorization header is missing; send "Authorization: Bearer <token>"');
  }
  const [scheme, credentials, ...rest] = header.trim().split(/\s+/);
  if (scheme?.toLowerCase() !== 'bearer' || credentials === undefined || rest.length > 0) {
    throw new UnauthorizedError('the Authorization header must use the Bearer scheme: "Bearer <token>"');
  }
  return credentials;
}

/**
 * `Authorization: Bearer <token>` against the expected token (resolved once, e.g. from Secrets
 * Manager at cold start). An empty expected token refuses everything: tokens fail closed.
 */
export function bearerAuth(expectedToken: () => Promise<string> | string): Authenticator {
  return async (req) => {
    const credentials = bearerCredentials(req);
    const expected = await expectedToken();
    if (expected === '' || !constantTimeEquals(credentials, expected)) {
      throw new UnauthorizedError('the bearer token is not valid');
    }
  };
}
