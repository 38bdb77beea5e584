import { PRICES, type Prices } from './prices.js';

/** What the stack used over the window, in billing units. */
export interface WindowUsage {
  readonly dynamodbReadUnits: number;
  readonly dynamodbWriteUnits: number;
  readonly sqsRequests: number;
  readonly lambdaInvocations: number;
  /** Estimated (local run time × configured memory). */
  readonly lambdaGbSeconds: number;
}

/** The same, per trigger executed in the window. */
export type PerTrigger = WindowUsage;

/** Dollars per million triggers, by item. */
export interface TriggerCost {
  readonly dynamodb: number;
  readonly sqs: number;
  readonly lambdaRequests: number;
  readonly lambdaDuration: number;
  readonly total: number;
}

/** Usage divided by the triggers it served (NaN for no trigger: there is nothing to divide). */
export function perTrigger(usage: WindowUsage, triggers: number): PerTrigger {
  const per = (n: number) => (triggers > 0 ? n / triggers : Number.NaN);
  return {
    dynamodbReadUnits: per(usage.dynamodbReadUnits),
    dynamodbWriteUnits: per(usage.dynamodbWriteUnits),
    sqsRequests: per(usage.sqsRequests),
    lambdaInvocations: per(usage.lambdaInvocations),
    lambdaGbSeconds: per(usage.lambdaGbSeconds),
  };
}

/** A million triggers at this usage each, at list prices. */
export function usdPerMillionTriggers(per: PerTrigger, prices: Prices = PRICES): TriggerCost {
  const dynamodb =
    per.dynamodbReadUnits * prices.dynamodb.usdPerMillionReadUnits +
    per.dynamodbWriteUnits * prices.dynamodb.usdPerMillionWriteUnits;
  const sqs = per.sqsRequests * prices.sqs.usdPerMillionRequests;
  const lambdaRequests = per.lambdaInvocations * prices.lambda.usdPerMillionRequests;
  const lambdaDuration = per.lambdaGbSeconds * 1e6 * prices.lambda.usdPerGbSecond;
  return {
    dynamodb,
    sqs,
    lambdaRequests,
    lambdaDuration,
    total: dynamodb + sqs + lambdaRequests + lambdaDuration,
  };
}
