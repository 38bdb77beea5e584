import type { SQSClient } from '@aws-sdk/client-sqs';
import { attemptsOf } from './dynamo-meter.js';
import { bodyBytes, operationOf, readJsonBody, type WireRequest } from './wire.js';

/** SQS bills each 64 KB chunk of a request's payload as one request. */
export const SQS_CHUNK_BYTES = 64 * 1024;

/** Billed requests of one operation on one queue. */
export interface SqsUsageRow {
  /** The API action; receives that returned nothing are `ReceiveMessage (empty)`. */
  readonly operation: string;
  readonly queue: string;
  /** Billed requests: attempts × 64 KB chunks. */
  readonly requests: number;
  /** Messages sent, received or deleted by them. */
  readonly messages: number;
}

export interface SqsUsage {
  readonly requests: number;
  readonly rows: readonly SqsUsageRow[];
}

type MutableRow = { -readonly [K in keyof SqsUsageRow]: SqsUsageRow[K] };

/** Billed requests for a payload of this size (at least one). */
export const chunksOf = (bytes: number): number => Math.max(1, Math.ceil(bytes / SQS_CHUNK_BYTES));

/**
 * Counts the requests an SQS client sends as SQS bills them: every API call (empty receives and
 * deletes included), each attempt, and per 64 KB chunk of the request body or of the messages a
 * receive returns, whichever is larger; failed calls count too.
 */
export class SqsMeter {
  private readonly rows = new Map<string, MutableRow>();

  constructor(private readonly queueLabel: (queueUrl: string) => string = (url) => url) {}

  attach(client: SQSClient): void {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const request = args.request as WireRequest;
        const operation = operationOf(request, context.commandName);
        const input = readJsonBody(request);
        const queue = this.queueLabel(typeof input?.QueueUrl === 'string' ? input.QueueUrl : '-');
        const sentBytes = bodyBytes(request);
        try {
          const result = await next(args);
          const output = result.output as { Messages?: { Body?: string }[] };
          const received = output.Messages ?? [];
          const receivedBytes = received.reduce((n, m) => n + Buffer.byteLength(m.Body ?? ''), 0);
          const name =
            operation === 'ReceiveMessage' && received.length === 0 ? `${operation} (empty)` : operation;
          const row = this.row(name, queue);
          row.requests += attemptsOf(result.output) * chunksOf(Math.max(sentBytes, receivedBytes));
          row.messages += operation === 'ReceiveMessage' ? received.length : entriesOf(input);
          return result;
        } catch (err) {
          this.row(`${operation} (failed)`, queue).requests += attemptsOf(err) * chunksOf(sentBytes);
          throw err;
        }
      },
      { step: 'build', priority: 'high', name: 'benchSqsMeter', override: true },
    );
  }

  reset(): void {
    this.rows.clear();
  }

  snapshot(): SqsUsage {
    const rows = [...this.rows.values()].map((r) => ({ ...r })).sort((a, b) => b.requests - a.requests);
    return { requests: rows.reduce((n, r) => n + r.requests, 0), rows };
  }

  private row(operation: string, queue: string): MutableRow {
    const key = `${operation}\u0000${queue}`;
    let row = this.rows.get(key);
    if (!row) {
      row = { operation, queue, requests: 0, messages: 0 };
      this.rows.set(key, row);
    }
    return row;
  }
}

/** Messages a send or delete request carries: a batch's entries, else one. */
function entriesOf(input: Record<string, unknown> | undefined): number {
  return Array.isArray(input?.Entries)
    ? input.Entries.length
    : input?.ReceiptHandle || input?.MessageBody
      ? 1
      : 0;
}
