import { describe, expect, it } from 'vitest';
import { perTrigger, usdPerMillionTriggers } from './cost.js';
import { PRICES } from './prices.js';

describe('prices', () => {
  it('are the us-east-1 list prices the bench documents, with their source', () => {
    expect(PRICES.region).toBe('us-east-1');
    expect(PRICES.dynamodb).toMatchObject({ usdPerMillionWriteUnits: 0.625, usdPerMillionReadUnits: 0.125 });
    expect(PRICES.sqs.usdPerMillionRequests).toBe(0.4);
    expect(PRICES.lambda).toMatchObject({ usdPerMillionRequests: 0.2, usdPerGbSecond: 0.0000133334 });
    for (const service of [PRICES.dynamodb, PRICES.sqs, PRICES.lambda]) {
      expect(service.source).toMatch(/^https:\/\/aws\.amazon\.com\/.+\/pricing\//);
    }
    expect(PRICES.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});

describe('perTrigger', () => {
  it('divides the window usage by the triggers executed in it', () => {
    expect(
      perTrigger(
        {
          dynamodbReadUnits: 1000,
          dynamodbWriteUnits: 3000,
          sqsRequests: 500,
          lambdaInvocations: 120,
          lambdaGbSeconds: 40,
        },
        1000,
      ),
    ).toEqual({
      dynamodbReadUnits: 1,
      dynamodbWriteUnits: 3,
      sqsRequests: 0.5,
      lambdaInvocations: 0.12,
      lambdaGbSeconds: 0.04,
    });
  });

  it('has nothing to divide by when no trigger ran', () => {
    const per = perTrigger(
      {
        dynamodbReadUnits: 1,
        dynamodbWriteUnits: 1,
        sqsRequests: 1,
        lambdaInvocations: 1,
        lambdaGbSeconds: 1,
      },
      0,
    );
    expect(Object.values(per).every(Number.isNaN)).toBe(true);
  });
});

describe('usdPerMillionTriggers', () => {
  it('prices a million triggers item by item', () => {
    const cost = usdPerMillionTriggers({
      dynamodbReadUnits: 2,
      dynamodbWriteUnits: 4,
      sqsRequests: 0.5,
      lambdaInvocations: 0.1,
      lambdaGbSeconds: 0.01,
    });
    expect(cost.dynamodb).toBeCloseTo(2 * 0.125 + 4 * 0.625, 10); // 2.75
    expect(cost.sqs).toBeCloseTo(0.2, 10);
    expect(cost.lambdaRequests).toBeCloseTo(0.02, 10);
    expect(cost.lambdaDuration).toBeCloseTo(0.01 * 1e6 * 0.0000133334, 10); // 0.133334
    expect(cost.total).toBeCloseTo(2.75 + 0.2 + 0.02 + 0.133334, 10);
  });

  it('takes other prices when given', () => {
    const prices = {
      ...PRICES,
      dynamodb: { ...PRICES.dynamodb, usdPerMillionWriteUnits: 1.25, usdPerMillionReadUnits: 0.25 },
    };
    const cost = usdPerMillionTriggers(
      {
        dynamodbReadUnits: 1,
        dynamodbWriteUnits: 1,
        sqsRequests: 0,
        lambdaInvocations: 0,
        lambdaGbSeconds: 0,
      },
      prices as unknown as typeof PRICES,
    );
    expect(cost.total).toBeCloseTo(1.5, 10);
  });
});
