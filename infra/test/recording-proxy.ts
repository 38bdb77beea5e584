import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One AWS API call that went through the proxy: the IAM action it needs and the resource it names. */
export interface RecordedCall {
  /** Who made it (set by the test before invoking a function). */
  readonly caller: string;
  /** IAM action, e.g. `dynamodb:PutItem`, `sqs:SendMessage`, `sns:Publish`. */
  readonly action: string;
  /** Table name, queue URL or topic ARN. */
  readonly resource: string;
}

type Json = Record<string, unknown>;

const TRANSACT_ACTIONS: Record<string, string> = {
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  ConditionCheck: 'ConditionCheckItem',
};

/** SQS batch operations need the IAM action of the single operation. */
const SQS_ACTIONS: Record<string, string> = {
  SendMessageBatch: 'SendMessage',
  DeleteMessageBatch: 'DeleteMessage',
  ChangeMessageVisibilityBatch: 'ChangeMessageVisibility',
};

/** The IAM actions and resources of one request (DynamoDB and SQS JSON protocol, SNS query protocol). */
export function callsOf(target: string | undefined, body: string): { action: string; resource: string }[] {
  if (target?.startsWith('DynamoDB_')) {
    const op = target.split('.')[1] ?? '';
    const parsed = JSON.parse(body || '{}') as Json;
    if (op === 'TransactWriteItems' || op === 'TransactGetItems') {
      return ((parsed.TransactItems ?? []) as Json[]).flatMap((item) =>
        Object.entries(item).map(([kind, value]) => ({
          action: `dynamodb:${op === 'TransactGetItems' ? 'GetItem' : (TRANSACT_ACTIONS[kind] ?? kind)}`,
          resource: String((value as Json).TableName),
        })),
      );
    }
    if (op === 'BatchGetItem' || op === 'BatchWriteItem') {
      return Object.keys((parsed.RequestItems ?? {}) as Json).map((table) => ({
        action: `dynamodb:${op}`,
        resource: table,
      }));
    }
    return [{ action: `dynamodb:${op}`, resource: String(parsed.TableName) }];
  }
  if (target?.startsWith('AmazonSQS.')) {
    const op = target.slice('AmazonSQS.'.length);
    const parsed = JSON.parse(body || '{}') as Json;
    return [
      { action: `sqs:${SQS_ACTIONS[op] ?? op}`, resource: String(parsed.QueueUrl ?? parsed.QueueName) },
    ];
  }
  const form = new URLSearchParams(body);
  const action = form.get('Action');
  if (action)
    return [{ action: `sns:${action}`, resource: form.get('TopicArn') ?? form.get('TargetArn') ?? '' }];
  return [{ action: `unknown:${target ?? 'no-target'}`, resource: '' }];
}

/**
 * An HTTP proxy in front of a stand-in that records every call's IAM action and resource, so a test
 * can check a function's role allows everything the deployed artefact really calls.
 */
export class RecordingProxy {
  readonly calls: RecordedCall[] = [];
  caller = 'unknown';
  private server: Server | undefined;

  private constructor(private readonly upstream: URL) {}

  static async start(upstream: string): Promise<RecordingProxy> {
    const proxy = new RecordingProxy(new URL(upstream));
    await proxy.listen();
    return proxy;
  }

  get endpoint(): string {
    const address = this.server?.address() as AddressInfo | undefined;
    if (!address) throw new Error('the proxy is not listening');
    const { port } = address;
    return `http://127.0.0.1:${port}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private listen(): Promise<void> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const caller = this.caller;
        try {
          const target = req.headers['x-amz-target'];
          for (const call of callsOf(Array.isArray(target) ? target[0] : target, body.toString('utf8'))) {
            this.calls.push({ caller, ...call });
          }
        } catch {
          this.calls.push({ caller, action: 'unparsed', resource: '' });
        }
        const forward = request(
          {
            host: this.upstream.hostname,
            port: this.upstream.port,
            method: req.method,
            path: req.url,
            headers: { ...req.headers, host: this.upstream.host },
          },
          (upstream) => {
            res.writeHead(upstream.statusCode ?? 502, upstream.headers);
            upstream.pipe(res);
          },
        );
        forward.on('error', (err) => {
          res.writeHead(502);
          res.end(String(err));
        });
        forward.end(body);
      });
    });
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
  }
}
