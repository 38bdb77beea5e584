/**
 * DynamoDB capacity arithmetic on the wire format (`{"S": ...}`, `{"N": ...}`, ...), for the requests
 * whose capacity DynamoDB does not report: writes that failed their condition, which AWS bills all
 * the same (the item is read to evaluate the condition), but whose error carries no ConsumedCapacity.
 */

export interface AttributeValueJson {
  readonly S?: string;
  readonly N?: string;
  readonly B?: string;
  readonly BOOL?: boolean;
  readonly NULL?: boolean;
  readonly L?: readonly AttributeValueJson[];
  readonly M?: Readonly<Record<string, AttributeValueJson>>;
  readonly SS?: readonly string[];
  readonly NS?: readonly string[];
  readonly BS?: readonly string[];
}

export type ItemJson = Readonly<Record<string, AttributeValueJson>>;

/** One write unit per started KB. */
export const WRITE_UNIT_BYTES = 1024;
/** A transactional write costs twice a plain one. */
export const TRANSACTION_FACTOR = 2;

const utf8 = (s: string): number => Buffer.byteLength(s, 'utf8');

/** Bytes of a number: one per two significant digits, plus one (DynamoDB's item size rules). */
function numberBytes(n: string): number {
  const mantissa = n.replace(/^[+-]/, '').replace(/[eE].*$/, '');
  const digits = mantissa.replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return Math.ceil(Math.max(digits.length, 1) / 2) + 1;
}

/** Bytes of a base64-encoded binary value once decoded. */
function binaryBytes(b64: string): number {
  const padding = b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0;
  return Math.floor((b64.length * 3) / 4) - padding;
}

/** Size of one attribute value as DynamoDB counts it (its name not included). */
export function attributeValueBytes(value: AttributeValueJson): number {
  if (value.S !== undefined) return utf8(value.S);
  if (value.N !== undefined) return numberBytes(value.N);
  if (value.B !== undefined) return binaryBytes(value.B);
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  // Lists and maps: 3 bytes of overhead plus 1 per element, whatever they hold.
  if (value.L !== undefined) return 3 + value.L.reduce((n, v) => n + 1 + attributeValueBytes(v), 0);
  if (value.M !== undefined) return 3 + Object.keys(value.M).length + itemSizeBytes(value.M);
  if (value.SS !== undefined) return value.SS.reduce((n, s) => n + utf8(s), 0);
  if (value.NS !== undefined) return value.NS.reduce((n, s) => n + numberBytes(s), 0);
  if (value.BS !== undefined) return value.BS.reduce((n, s) => n + binaryBytes(s), 0);
  return 0;
}

/** Size of an item: each attribute's name (UTF-8) and value. */
export function itemSizeBytes(item: ItemJson): number {
  return Object.entries(item).reduce((n, [name, value]) => n + utf8(name) + attributeValueBytes(value), 0);
}

/** Write units for an item of this size (at least one). */
export const writeUnitsFor = (bytes: number): number => Math.max(1, Math.ceil(bytes / WRITE_UNIT_BYTES));

/** Write units of a failed write, by table. */
export interface EstimatedUnits {
  readonly table: string;
  readonly writeUnits: number;
}

/**
 * What a write that failed its condition (ConditionalCheckFailedException, or a cancelled
 * transaction) is billed, estimated from the request: PutItem the item's size; UpdateItem the key
 * and the new values (the stored item is unknown here; tickring's items are under 1 KB, so this is
 * 1 unit either way); DeleteItem the key; each action of a transaction twice that. Nothing is
 * written, so no index units.
 */
export function failedWriteUnits(
  operation: string,
  input: Readonly<Record<string, unknown>>,
): EstimatedUnits[] {
  switch (operation) {
    case 'PutItem':
    case 'UpdateItem':
    case 'DeleteItem':
      return [{ table: String(input.TableName), writeUnits: writeUnitsFor(writeBytes(operation, input)) }];
    case 'TransactWriteItems': {
      const items = (input.TransactItems ?? []) as readonly Record<string, Record<string, unknown>>[];
      return items.flatMap((action) => {
        const [kind, body] = Object.entries(action)[0] ?? [];
        if (!kind || !body) return [];
        const bytes = writeBytes(kind === 'Put' ? 'PutItem' : 'UpdateItem', body);
        return [{ table: String(body.TableName), writeUnits: TRANSACTION_FACTOR * writeUnitsFor(bytes) }];
      });
    }
    default:
      return [];
  }
}

function writeBytes(operation: string, input: Readonly<Record<string, unknown>>): number {
  if (operation === 'PutItem') return itemSizeBytes((input.Item ?? {}) as ItemJson);
  const key = itemSizeBytes((input.Key ?? {}) as ItemJson);
  const values = Object.values((input.ExpressionAttributeValues ?? {}) as ItemJson);
  return key + values.reduce((n, v) => n + attributeValueBytes(v), 0);
}
