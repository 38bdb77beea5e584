/**
 * AWS list prices the bench turns its measured usage into dollars with: us-east-1, on-demand, no
 * free tier (the free tiers are ignored: at a million triggers they are a rounding error or gone),
 * no volume discounts. Prices change: check the pages below before quoting a result.
 */
export const PRICES = {
  region: 'us-east-1',
  /**
   * When these were recorded here, from the project's price notes (aws-and-peers.md §2–4, which took
   * them from the pages below); not re-read from AWS on that day.
   */
  asOf: '2026-11-21',
  dynamodb: {
    source: 'https://aws.amazon.com/dynamodb/pricing/on-demand/',
    /** On-demand (since the 50 % cut of November 2024). */
    usdPerMillionWriteUnits: 0.625,
    usdPerMillionReadUnits: 0.125,
  },
  sqs: {
    source: 'https://aws.amazon.com/sqs/pricing/',
    /** Standard queues, first 100 B requests a month; every 64 KB chunk is a request. */
    usdPerMillionRequests: 0.4,
  },
  lambda: {
    source: 'https://aws.amazon.com/lambda/pricing/',
    usdPerMillionRequests: 0.2,
    /** arm64 (the stack deploys every function on Graviton), first 7.5 B GB-s a month. */
    usdPerGbSecond: 0.0000133334,
  },
} as const;

export type Prices = typeof PRICES;
