/**
 * The JSON bodies of AWS JSON-protocol requests (DynamoDB, SQS) as the SDK's build step holds them,
 * for the bench's meters: read them, and rewrite them before they are signed.
 */

export interface WireRequest {
  headers: Record<string, string>;
  body?: unknown;
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** `DynamoDB_20120810.PutItem` → `PutItem`; the command name without `Command` when the header is absent. */
export function operationOf(request: WireRequest, commandName: string | undefined): string {
  const target = request.headers['x-amz-target'] ?? request.headers['X-Amz-Target'];
  if (target) return target.slice(target.lastIndexOf('.') + 1);
  return (commandName ?? 'Unknown').replace(/Command$/, '');
}

/** The body's bytes (0 when there is none). */
export function bodyBytes(request: WireRequest): number {
  const { body } = request;
  if (typeof body === 'string') return encoder.encode(body).length;
  if (body instanceof Uint8Array) return body.byteLength;
  return 0;
}

/** The body parsed as JSON, or undefined when it is not a JSON object. */
export function readJsonBody(request: WireRequest): Record<string, unknown> | undefined {
  const { body } = request;
  const text =
    typeof body === 'string' ? body : body instanceof Uint8Array ? decoder.decode(body) : undefined;
  if (text === undefined || text === '') return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Replaces the body (same encoding as before), keeping a Content-Length header right if one is set. */
export function writeJsonBody(request: WireRequest, json: Record<string, unknown>): void {
  const text = JSON.stringify(json);
  request.body = typeof request.body === 'string' ? text : encoder.encode(text);
  for (const name of Object.keys(request.headers)) {
    if (name.toLowerCase() === 'content-length') request.headers[name] = String(encoder.encode(text).length);
  }
}
