/**
 * Refused executor requests (registrations, removals, callbacks refused for their credentials or
 * body), counted per (appName, address, reason): an executor configured wrongly retries every 30 s
 * and gets the same answer each time, and without these nobody but its own log would know.
 */

/** Why the executor API refused a request, in the order it checks. */
export const REFUSAL_REASONS = [
  'missing-token',
  'wrong-token',
  'unknown-app-name',
  'app-name-mismatch',
  'malformed-request',
  'token-unavailable',
] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

/** Which executor API path was refused. */
export type RefusedRequest = 'registry' | 'registryRemove' | 'callback';

/** What a person reads to fix it: the cause and the setting to change. */
export const REFUSAL_HINTS: Readonly<Record<RefusalReason, string>> = {
  'missing-token':
    'No access token was sent (XXL-JOB-ACCESS-TOKEN). Set the executor’s access token (xxl.job.accessToken): its group’s own token if the group has one, else the global access token.',
  'wrong-token':
    'The access token is not the one for this app name. Give the executor its group’s own token if the group has one (PUT /v1/groups/{appName}/access-token sets it), else the global access token.',
  'unknown-app-name':
    'No executor group has this app name, and the token sent is not the global one (a group’s own token works only under that group’s app name). Fix the executor’s app name (xxl.job.executor.appname), or create the group.',
  'app-name-mismatch':
    'The XXL-JOB-APPNAME header names another group than the request speaks for (the registration’s app name, or the groups of the reported runs). Give the executor one app name.',
  'malformed-request':
    'The body is not one tickring can read (empty, not JSON, a blank or too long field): see the detail. Fix or upgrade the executor.',
  'token-unavailable':
    'tickring could not read the access token to check against (its secret or the token key): see the error log of the function that serves /api/registry. Every executor is refused until it can.',
};

/** The key refusals are counted under. */
export interface RefusalKey {
  /** The app name the request gave (its registryKey, else its XXL-JOB-APPNAME header); '' when none. */
  readonly appName: string;
  /** The executor's address (its registryValue); for a request whose body names none, the address it came from. */
  readonly address: string;
  readonly reason: RefusalReason;
}

/** Refusals of one key. Never holds a token, not even part of one. */
export interface RefusedRegistration extends RefusalKey {
  /** The path of the last one. */
  readonly request: RefusedRequest;
  /** The answer the executor got the last time (XXL-JOB's words, e.g. "The access token is wrong."). */
  readonly detail: string;
  /** Epoch ms of the first and the last refusal counted. */
  readonly firstSeen: number;
  readonly lastSeen: number;
  readonly count: number;
}

/**
 * Refused executor requests, one record per {@link RefusalKey}, beside the registry. A record not
 * added to for the store's expiry (24 h by default) is gone.
 */
export interface RegistrationRefusalStore {
  /**
   * Adds `count` refusals of the key: the count grows by it (exactly, under concurrent adds),
   * `firstSeen` is kept from the first add, and `lastSeen`, `request` and `detail` are the latest
   * add's. The expiry runs from `lastSeen`.
   */
  add(refusals: RefusedRegistration): Promise<void>;
  /** The records not expired (of `appName` only, when given), the last seen first. */
  list(appName?: string): Promise<RefusedRegistration[]>;
}

/** How long a key not refused again is kept. */
export const DEFAULT_REFUSAL_EXPIRE_AFTER_SECONDS = 24 * 3600;

/** Newest first; ties by key, so every store answers in the same order. */
export function byLastSeen(a: RefusedRegistration, b: RefusedRegistration): number {
  return b.lastSeen - a.lastSeen || keyOrder(a, b);
}

function keyOrder(a: RefusalKey, b: RefusalKey): number {
  for (const field of ['appName', 'address', 'reason'] as const) {
    if (a[field] !== b[field]) return a[field] < b[field] ? -1 : 1;
  }
  return 0;
}
