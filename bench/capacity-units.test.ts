import { describe, expect, it } from 'vitest';
import { attributeValueBytes, failedWriteUnits, itemSizeBytes, writeUnitsFor } from './capacity-units.js';

describe('item size', () => {
  it('counts strings in UTF-8 bytes and numbers by significant digits', () => {
    expect(attributeValueBytes({ S: 'abc' })).toBe(3);
    expect(attributeValueBytes({ S: 'é' })).toBe(2);
    expect(attributeValueBytes({ N: '1' })).toBe(2);
    expect(attributeValueBytes({ N: '1700000000000' })).toBe(2); // "17": zeros trimmed
    expect(attributeValueBytes({ N: '1763712000123' })).toBe(8); // 13 digits → 7 + 1
    expect(attributeValueBytes({ N: '-0.5' })).toBe(2);
  });

  it('counts binary decoded, booleans and nulls as one byte, lists and maps with their overhead', () => {
    expect(attributeValueBytes({ B: 'AAEC' })).toBe(3);
    expect(attributeValueBytes({ BOOL: false })).toBe(1);
    expect(attributeValueBytes({ NULL: true })).toBe(1);
    expect(attributeValueBytes({ L: [] })).toBe(3);
    expect(attributeValueBytes({ L: [{ S: 'ab' }, { N: '1' }] })).toBe(3 + (1 + 2) + (1 + 2));
    expect(attributeValueBytes({ M: { a: { S: 'xy' } } })).toBe(3 + 1 + (1 + 2));
    expect(attributeValueBytes({ SS: ['a', 'bc'] })).toBe(3);
  });

  it('adds the attribute names', () => {
    expect(itemSizeBytes({ pk: { S: 'lease#0' }, owner: { S: 'me' } })).toBe(2 + 7 + 5 + 2);
  });
});

describe('failedWriteUnits', () => {
  it('is one unit per started KB of a put item, at least one', () => {
    expect(writeUnitsFor(0)).toBe(1);
    expect(writeUnitsFor(1024)).toBe(1);
    expect(writeUnitsFor(1025)).toBe(2);
    const big = { TableName: 't', Item: { pk: { S: 'k' }, body: { S: 'x'.repeat(1500) } } };
    expect(failedWriteUnits('PutItem', big)).toEqual([{ table: 't', writeUnits: 2 }]);
  });

  it('estimates updates and deletes from the key and the new values', () => {
    expect(
      failedWriteUnits('UpdateItem', {
        TableName: 'jobs',
        Key: { id: { N: '7' } },
        ExpressionAttributeValues: { ':next': { N: '1763712000000' } },
      }),
    ).toEqual([{ table: 'jobs', writeUnits: 1 }]);
    expect(failedWriteUnits('DeleteItem', { TableName: 'jobs', Key: { id: { N: '7' } } })).toEqual([
      { table: 'jobs', writeUnits: 1 },
    ]);
  });

  it('bills each action of a cancelled transaction twice, by table', () => {
    expect(
      failedWriteUnits('TransactWriteItems', {
        TransactItems: [
          { Put: { TableName: 'runs', Item: { dedupKey: { S: '1@2' } } } },
          { ConditionCheck: { TableName: 'jobs', Key: { id: { N: '1' } } } },
        ],
      }),
    ).toEqual([
      { table: 'runs', writeUnits: 2 },
      { table: 'jobs', writeUnits: 2 },
    ]);
  });

  it('bills nothing for reads', () => {
    expect(failedWriteUnits('GetItem', { TableName: 'jobs', Key: { id: { N: '1' } } })).toEqual([]);
  });
});
