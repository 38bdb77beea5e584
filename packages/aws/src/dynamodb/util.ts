import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { decodePageCursor, encodePageCursor } from '@tickring/core/common';

export type Item = Record<string, unknown>;

export function isConditionFailed(err: unknown): boolean {
  return (
    err instanceof ConditionalCheckFailedException ||
    (err instanceof Error && err.name === 'ConditionalCheckFailedException')
  );
}

/** Pagination cursors are the LastEvaluatedKey, base64url-encoded: opaque to callers. */
export function encodeCursor(key: Item | undefined): string | undefined {
  return key ? encodePageCursor(key) : undefined;
}

export { decodePageCursor as decodeCursor };

/**
 * BatchGetItem over any number of keys, retrying unprocessed keys: strongly consistent and whole
 * items unless `read` asks for less (an eventually consistent read costs half).
 */
export async function batchGetAll(
  doc: DynamoDBDocumentClient,
  tableName: string,
  keys: readonly Item[],
  read: { readonly consistent?: boolean; readonly attributes?: readonly string[] } = {},
): Promise<Item[]> {
  const projection = read.attributes
    ? {
        ProjectionExpression: read.attributes.map((_, i) => `#a${i}`).join(', '),
        ExpressionAttributeNames: Object.fromEntries(read.attributes.map((name, i) => [`#a${i}`, name])),
      }
    : {};
  const out: Item[] = [];
  for (let i = 0; i < keys.length; i += 100) {
    let pending: Item[] | undefined = keys.slice(i, i + 100) as Item[];
    for (let attempt = 0; pending && pending.length > 0; attempt++) {
      const result = await doc.send(
        new BatchGetCommand({
          RequestItems: {
            [tableName]: { Keys: pending, ConsistentRead: read.consistent ?? true, ...projection },
          },
        }),
      );
      out.push(...((result.Responses?.[tableName] ?? []) as Item[]));
      pending = result.UnprocessedKeys?.[tableName]?.Keys as Item[] | undefined;
      if (pending?.length) await new Promise((r) => setTimeout(r, Math.min(1000, 50 * 2 ** attempt)));
    }
  }
  return out;
}
