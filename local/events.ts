import { createHash, randomUUID } from 'node:crypto';
import type { Message } from '@aws-sdk/client-sqs';
import type { SqliteRingDelivery } from '@tickring/embedded/sqlite';
import type { APIGatewayProxyEventV2, ScheduledEvent, SQSRecord } from 'aws-lambda';

const ACCOUNT = '000000000000';

/** The event EventBridge sends for a `rate(...)` rule. */
export function scheduledEvent(region: string, ruleName: string, time = new Date()): ScheduledEvent {
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account: ACCOUNT,
    time: new Date(Math.floor(time.getTime() / 1000) * 1000).toISOString().replace('.000Z', 'Z'),
    region,
    resources: [`arn:aws:events:${region}:${ACCOUNT}:rule/${ruleName}`],
    detail: {},
  };
}

/** One record of the event Lambda's SQS event source mapping delivers. */
export function sqsRecord(message: Message, queueArn: string, region: string): SQSRecord {
  const attributes = message.Attributes ?? {};
  return {
    messageId: message.MessageId ?? randomUUID(),
    receiptHandle: message.ReceiptHandle ?? '',
    body: message.Body ?? '',
    attributes: {
      ApproximateReceiveCount: attributes.ApproximateReceiveCount ?? '1',
      SentTimestamp: attributes.SentTimestamp ?? String(Date.now()),
      SenderId: attributes.SenderId ?? ACCOUNT,
      ApproximateFirstReceiveTimestamp: attributes.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
    },
    messageAttributes: Object.fromEntries(
      Object.entries(message.MessageAttributes ?? {}).map(([name, value]) => [
        name,
        {
          dataType: value.DataType ?? 'String',
          stringValue: value.StringValue,
          stringListValues: [],
          binaryListValues: [],
        },
      ]),
    ),
    md5OfBody: message.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: region,
  };
}

/** A message of the SQLite ring as the same kind of record (the receipt as its receipt handle). */
export function sqliteRingRecord(
  delivery: Pick<
    SqliteRingDelivery,
    'messageId' | 'receipt' | 'body' | 'receiveCount' | 'sentAt' | 'firstReceivedAt'
  >,
  sourceArn: string,
  region: string,
): SQSRecord {
  return {
    messageId: delivery.messageId,
    receiptHandle: delivery.receipt,
    body: delivery.body,
    attributes: {
      ApproximateReceiveCount: String(delivery.receiveCount),
      SentTimestamp: String(delivery.sentAt),
      SenderId: ACCOUNT,
      ApproximateFirstReceiveTimestamp: String(delivery.firstReceivedAt),
    },
    messageAttributes: {},
    md5OfBody: createHash('md5').update(delivery.body).digest('hex'),
    eventSource: 'aws:sqs',
    eventSourceARN: sourceArn,
    awsRegion: region,
  };
}

export interface HttpRequestShape {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: Buffer;
  readonly sourceIp: string;
}

/** An API Gateway v2 (HTTP API, payload format 2.0) event for a request matched to `routeKey`. */
export function httpApiEvent(
  request: HttpRequestShape,
  routeKey: string,
  pathParameters: Record<string, string> | undefined,
): APIGatewayProxyEventV2 {
  const url = new URL(request.url, 'http://localhost');
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    if (lower === 'cookie') cookies.push(...String(value).split(/;\s*/));
    else headers[lower] = Array.isArray(value) ? value.join(',') : value;
  }
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams)
    query[name] = name in query ? `${query[name]},${value}` : value;
  const contentType = headers['content-type'] ?? '';
  const isText =
    request.body.length === 0 || /json|text|xml|x-www-form-urlencoded/i.test(contentType) || !contentType;
  const now = new Date();
  return {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    cookies: cookies.length ? cookies : undefined,
    headers,
    queryStringParameters: Object.keys(query).length ? query : undefined,
    pathParameters,
    requestContext: {
      accountId: ACCOUNT,
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'local',
      http: {
        method: request.method.toUpperCase(),
        path: url.pathname,
        protocol: 'HTTP/1.1',
        sourceIp: request.sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    body: request.body.length
      ? isText
        ? request.body.toString('utf8')
        : request.body.toString('base64')
      : undefined,
    isBase64Encoded: request.body.length > 0 && !isText,
  };
}
