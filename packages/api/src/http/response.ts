import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

/** What a route returns; the body is sent as JSON, or as it is when it is text (see `text`). */
export interface HttpResult {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export const ok = (body: unknown): HttpResult => ({ status: 200, body });
export const created = (body: unknown): HttpResult => ({ status: 201, body });
/** 204; takes the (void) result of the call it follows, so a route stays one expression. */
export const noContent = (_done?: unknown): HttpResult => ({ status: 204 });

/** A text answer of its own content type (an iCalendar export), sent as it is. */
export const text = (
  body: string,
  contentType: string,
  headers: Record<string, string> = {},
): HttpResult => ({
  status: 200,
  body,
  headers: { ...headers, 'content-type': contentType },
});

export function toApiGatewayV2(result: HttpResult): APIGatewayProxyStructuredResultV2 {
  const hasBody = result.body !== undefined && result.status !== 204;
  const contentType = result.headers?.['content-type'];
  if (hasBody && typeof result.body === 'string' && contentType !== undefined && !/json/i.test(contentType)) {
    return { statusCode: result.status, headers: { ...result.headers }, body: result.body };
  }
  return {
    statusCode: result.status,
    headers: { ...(hasBody ? { 'content-type': 'application/json' } : {}), ...result.headers },
    body: hasBody ? JSON.stringify(result.body) : '',
  };
}
