import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';

/**
 * Placeholders of one expression: every attribute name (map keys included: node keys may be
 * reserved words) and value, short (`#a`, `:a`, base 36) so 200 per-node paths stay within
 * DynamoDB's 4 KB expression limit.
 */
export class Expr {
  private readonly names = new Map<string, string>();
  private readonly values: Record<string, unknown> = {};
  private valueCount = 0;

  name(attribute: string): string {
    let placeholder = this.names.get(attribute);
    if (!placeholder) {
      placeholder = `#${this.names.size.toString(36)}`;
      this.names.set(attribute, placeholder);
    }
    return placeholder;
  }

  value(value: unknown): string {
    const placeholder = `:${(this.valueCount++).toString(36)}`;
    this.values[placeholder] = value;
    return placeholder;
  }

  attributes(): {
    ExpressionAttributeNames: Record<string, string>;
    ExpressionAttributeValues?: Record<string, unknown>;
  } {
    return {
      ExpressionAttributeNames: Object.fromEntries([...this.names].map(([attr, ph]) => [ph, attr])),
      ...(this.valueCount > 0 ? { ExpressionAttributeValues: this.values } : {}),
    };
  }
}

export function cancellationCodes(err: unknown): (string | undefined)[] | undefined {
  const cancelled =
    err instanceof TransactionCanceledException ||
    (err instanceof Error && err.name === 'TransactionCanceledException');
  if (!cancelled) return undefined;
  return ((err as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? []).map(
    (r) => r.Code,
  );
}
