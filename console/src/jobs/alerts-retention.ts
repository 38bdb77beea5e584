// A job's alert channels and log retention in words, and its retention estimate (GET /v1/jobs/{id})
// as figures a person reads: records, size, monthly cost and the storage price it assumes. Pure.

import type { AlertChannel, Job, JobRetention } from '@tickring/client';
import { percentText } from './job-form';

/**
 * "none", or the channels by name (an id no channel has, or none read, as the id); the group's
 * default named the same way once read ("group default: ops webhook", "group default: none"), else
 * "group default".
 */
export function alertChannelsText(
  channels: Job['alertChannels'] | readonly string[],
  known: readonly Pick<AlertChannel, 'id' | 'name'>[] | undefined,
  groupChannels?: readonly string[],
): string {
  if (channels === null || channels === undefined) {
    return groupChannels === undefined
      ? 'group default'
      : `group default: ${alertChannelsText(groupChannels, known)}`;
  }
  if (channels.length === 0) return 'none';
  return channels.map((id) => known?.find((c) => c.id === id)?.name ?? id).join(', ');
}

/** "90 days; 10 % of successes (the others 1 day)" or "the install's default; every success". */
export function retentionText(job: Pick<Job, 'logRetentionDays' | 'keepSuccessfulRuns'>): string {
  const days =
    job.logRetentionDays === null
      ? 'the install’s default'
      : `${job.logRetentionDays} day${job.logRetentionDays === 1 ? '' : 's'}`;
  const sample = job.keepSuccessfulRuns;
  const successes =
    sample === null || sample >= 1
      ? 'every success kept'
      : `${percentText(sample)} % of successes kept (the others 1 day)`;
  return `${days}; ${successes}`;
}

const GB = 1024 ** 3;
const UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB'] as const;

/** "850 bytes", "3.8 MB" (powers of 1024, as the estimate's GB). */
export function bytesText(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} bytes` : `${value.toFixed(value < 10 ? 1 : 0)} ${UNITS[unit]}`;
}

/** The estimate in words: how many records, their size, the monthly cost and the price per GB-month it assumes. */
export interface RetentionFigures {
  readonly records: string;
  readonly size: string;
  readonly monthlyCost: string;
  /** USD per GB-month, worked back from the estimate itself; undefined when it keeps nothing. */
  readonly pricePerGbMonth: string | undefined;
}

export function retentionFigures(estimate: JobRetention): RetentionFigures {
  const records = estimate.estimatedRecords.toLocaleString('en');
  // The API rounds the cost to four significant digits: three of the price it was priced at are exact.
  const price =
    estimate.estimatedBytes > 0 && estimate.estimatedMonthlyCostUsd > 0
      ? Number((estimate.estimatedMonthlyCostUsd / (estimate.estimatedBytes / GB)).toPrecision(3))
      : undefined;
  return {
    records: `${records} run record${estimate.estimatedRecords === 1 ? '' : 's'}`,
    size: bytesText(estimate.estimatedBytes),
    monthlyCost: `${estimate.estimatedMonthlyCostUsd.toLocaleString('en', { maximumSignificantDigits: 4 })} USD a month`,
    pricePerGbMonth: price === undefined ? undefined : `${price} USD per GB-month`,
  };
}
