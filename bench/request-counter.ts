import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { SQSClient } from '@aws-sdk/client-sqs';

/**
 * Counts the HTTP requests an SDK client sends, by operation (one per attempt, so retries count).
 * Added at the deserialize step, which runs once per attempt, inside the retry middleware.
 */
export class RequestCounter {
  private readonly counts = new Map<string, number>();

  attachDynamo(client: DynamoDBClient): void {
    client.middlewareStack.add(
      (next, context) => (args) => {
        this.count('DynamoDB', context.commandName);
        return next(args);
      },
      { step: 'deserialize', name: 'benchRequestCounter', override: true },
    );
  }

  attachSqs(client: SQSClient): void {
    client.middlewareStack.add(
      (next, context) => (args) => {
        this.count('SQS', context.commandName);
        return next(args);
      },
      { step: 'deserialize', name: 'benchRequestCounter', override: true },
    );
  }

  private count(service: string, commandName: string | undefined): void {
    const key = `${service}.${(commandName ?? 'unknown').replace(/Command$/, '')}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  reset(): void {
    this.counts.clear();
  }

  /** Counts by `Service.Operation`, sorted by name, plus per-service totals. */
  snapshot(): { byOperation: Record<string, number>; dynamodb: number; sqs: number } {
    const byOperation = Object.fromEntries([...this.counts].sort(([a], [b]) => a.localeCompare(b)));
    let dynamodb = 0;
    let sqs = 0;
    for (const [key, n] of this.counts) {
      if (key.startsWith('DynamoDB.')) dynamodb += n;
      else sqs += n;
    }
    return { byOperation, dynamodb, sqs };
  }
}
