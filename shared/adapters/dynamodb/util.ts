import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ValidationError } from '../../domain/errors.js';

export type Item = Record<string, unknown>;

export function isConditionFailed(err: unknown): boolean {
  return (
    err instanceof ConditionalCheckFailedException ||
    (err instanceof Error && err.name === 'ConditionalCheckFailedException')
  );
}

/** Pagination cursors are the LastEvaluatedKey, base64url-encoded: opaque to callers. */
export function encodeCursor(key: Item | undefined): string | undefined {
  return key ? Buffer.from(JSON.stringify(key)).toString('base64url') : undefined;
}

export function decodeCursor(cursor: string | undefined): Item | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Item;
  } catch {
    // fall through
  }
  throw new ValidationError('cursor is not a cursor this API returned', 'cursor');
}

/** Strongly consistent BatchGetItem over any number of keys, retrying unprocessed keys. */
export async function batchGetAll(
  doc: DynamoDBDocumentClient,
  tableName: string,
  keys: readonly Item[],
): Promise<Item[]> {
  const out: Item[] = [];
  for (let i = 0; i < keys.length; i += 100) {
    let pending: Item[] | undefined = keys.slice(i, i + 100) as Item[];
    for (let attempt = 0; pending && pending.length > 0; attempt++) {
      const result = await doc.send(
        new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending, ConsistentRead: true } } }),
      );
      out.push(...((result.Responses?.[tableName] ?? []) as Item[]));
      pending = result.UnprocessedKeys?.[tableName]?.Keys as Item[] | undefined;
      if (pending?.length) await new Promise((r) => setTimeout(r, Math.min(1000, 50 * 2 ** attempt)));
    }
  }
  return out;
}
