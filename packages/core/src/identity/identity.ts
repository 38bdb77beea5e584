/**
 * People and credentials: the rules of usernames, display names, grants, passwords and token
 * names, the formats of the secrets handed out (API tokens, sessions, a rotated bootstrap token),
 * and the failed-sign-in throttle. Checks return every problem found, each naming its field, so a
 * request is refused once for all of them.
 */

import { GROUP_LIMITS } from '../jobs/job-validation.js';
import { ALL_GROUPS, type Grant, ROLES, type Role } from './access.js';

/** One thing wrong with an input: the field and what. */
export interface Problem {
  readonly field: string;
  readonly message: string;
}

// ---------------------------------------------------------------------------------------------
// Usernames and display names

/** 3–64 of `a-z 0-9 . _ -`; compared case-insensitively (kept lower-case). */
export const USERNAME_LIMITS = { min: 3, max: 64 } as const;
const USERNAME_CHARS = /^[a-z0-9._-]+$/;
export const DISPLAY_NAME_MAX = 128;

/** How a username is kept and compared: trimmed, lower-case. */
export function normalizeUsername(raw: string): string {
  return raw.trim().toLowerCase();
}

/** The problems of a (normalized) username. */
export function usernameProblems(username: string, field = 'username'): Problem[] {
  const { min, max } = USERNAME_LIMITS;
  if (username.length < min || username.length > max || !USERNAME_CHARS.test(username)) {
    return [
      {
        field,
        message: `${field} must be ${min}-${max} characters of letters, digits, '.', '_' and '-' (case does not matter); got ${JSON.stringify(username)}`,
      },
    ];
  }
  return [];
}

export function displayNameProblems(displayName: string): Problem[] {
  if (displayName.length > DISPLAY_NAME_MAX) {
    return [
      {
        field: 'displayName',
        message: `displayName must be at most ${DISPLAY_NAME_MAX} characters; got ${displayName.length}`,
      },
    ];
  }
  if ([...displayName].some((c) => (c.codePointAt(0) ?? 0) < 0x20 || c === '\u007f')) {
    return [{ field: 'displayName', message: 'displayName must not contain control characters' }];
  }
  return [];
}

// ---------------------------------------------------------------------------------------------
// Grants

/** Most groups one grant names. */
export const GRANT_MAX_GROUPS = 200;
const APP_NAME_CHARS = /^[A-Za-z0-9_.-]+$/;

/** A grant as asked for: `groups` and `glue` may be left out where the role implies them. */
export interface GrantInput {
  readonly role: Role;
  readonly groups?: readonly string[] | typeof ALL_GROUPS;
  readonly glue?: boolean;
}

/**
 * Reads a grant: an admin reaches every group and may edit GLUE sources (`groups` absent or `*`,
 * `glue` absent or true); an operator names at least one group, or `*` (`glue` false unless given);
 * a viewer `*` or a list of groups, and never edits GLUE sources. Groups are executor AppNames
 * (present or future), kept sorted without duplicates.
 */
export function readGrant(input: GrantInput): { grant?: Grant; problems: Problem[] } {
  const problems: Problem[] = [];
  const { role } = input;
  if (!(ROLES as readonly string[]).includes(role)) {
    problems.push({
      field: 'role',
      message: `role must be one of ${ROLES.join(', ')}; got ${JSON.stringify(role)}`,
    });
    return { problems };
  }
  let groups: readonly string[] | typeof ALL_GROUPS;
  if (role === 'admin') {
    if (input.groups !== undefined && input.groups !== ALL_GROUPS) {
      problems.push({
        field: 'groups',
        message: `an admin reaches every group: groups must be "${ALL_GROUPS}" or left out`,
      });
    }
    if (input.glue === false) {
      problems.push({
        field: 'glue',
        message: 'an admin always may edit GLUE sources: glue must be true or left out',
      });
    }
    return problems.length > 0 ? { problems } : { grant: { role, groups: ALL_GROUPS, glue: true }, problems };
  }
  if (input.groups === undefined) {
    problems.push({
      field: 'groups',
      message: `groups is required for ${article(role)} ${role}: "${ALL_GROUPS}" for every group, or a list of AppNames`,
    });
    groups = [];
  } else if (input.groups === ALL_GROUPS) {
    groups = ALL_GROUPS;
  } else {
    groups = [...new Set(input.groups)].sort();
    if (role === 'operator' && groups.length === 0) {
      problems.push({
        field: 'groups',
        message: `an operator needs at least one group, or "${ALL_GROUPS}" for every group`,
      });
    }
    if (groups.length > GRANT_MAX_GROUPS) {
      problems.push({
        field: 'groups',
        message: `groups may name at most ${GRANT_MAX_GROUPS} groups; got ${groups.length}`,
      });
    }
    const bad = groups.filter(
      (g) => g.length < GROUP_LIMITS.appNameMin || g.length > GROUP_LIMITS.appName || !APP_NAME_CHARS.test(g),
    );
    if (bad.length > 0) {
      problems.push({
        field: 'groups',
        message: `each group must be an AppName (${GROUP_LIMITS.appNameMin}-${GROUP_LIMITS.appName} characters of letters, digits, '_', '.' and '-'), or groups must be "${ALL_GROUPS}"; got ${bad
          .slice(0, 5)
          .map((g) => JSON.stringify(g))
          .join(', ')}`,
      });
    }
  }
  const glue = input.glue ?? false;
  if (role === 'viewer' && glue) {
    problems.push({
      field: 'glue',
      message: 'a viewer never edits GLUE sources: glue must be false or left out',
    });
  }
  return problems.length > 0 ? { problems } : { grant: { role, groups, glue }, problems };
}

const RANK: Readonly<Record<Role, number>> = { viewer: 0, operator: 1, admin: 2 };

/**
 * What `inner` has that `outer` does not (empty: `outer` covers it): a higher role, a group (or
 * every group) outside `outer`'s, or GLUE editing. An admin covers every grant.
 */
export function grantExcess(outer: Grant, inner: Grant): Problem[] {
  if (outer.role === 'admin') return [];
  const problems: Problem[] = [];
  if (RANK[inner.role] > RANK[outer.role]) {
    problems.push({ field: 'role', message: `role ${inner.role} is more than your own (${outer.role})` });
  }
  if (outer.groups !== ALL_GROUPS) {
    const own = new Set(outer.groups);
    if (inner.groups === ALL_GROUPS) {
      problems.push({ field: 'groups', message: `"${ALL_GROUPS}" reaches groups you do not` });
    } else {
      const beyond = inner.groups.filter((g) => !own.has(g));
      if (beyond.length > 0) {
        problems.push({ field: 'groups', message: `groups ${beyond.join(', ')} are not yours` });
      }
    }
  }
  if (inner.glue && !(outer.glue && outer.role === 'operator')) {
    problems.push({ field: 'glue', message: 'glue: you may not edit GLUE sources yourself' });
  }
  return problems;
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? 'an' : 'a';
}

// ---------------------------------------------------------------------------------------------
// Passwords

export const PASSWORD_LIMITS = { min: 12, max: 256 } as const;

/**
 * Every way the password breaks the policy: 12–256 characters (code points), not containing the
 * username (in any case), not one character repeated. No composition rules: length is what makes
 * a password hard to guess.
 */
export function passwordProblems(
  password: string,
  username: string | undefined,
  field = 'password',
): Problem[] {
  const problems: Problem[] = [];
  const chars = [...password];
  if (chars.length < PASSWORD_LIMITS.min) {
    problems.push({
      field,
      message: `${field} must be at least ${PASSWORD_LIMITS.min} characters; got ${chars.length}`,
    });
  }
  if (chars.length > PASSWORD_LIMITS.max) {
    problems.push({
      field,
      message: `${field} must be at most ${PASSWORD_LIMITS.max} characters; got ${chars.length}`,
    });
  }
  if (username !== undefined && username !== '' && password.toLowerCase().includes(username.toLowerCase())) {
    problems.push({ field, message: `${field} must not contain the username` });
  }
  if (chars.length > 0 && chars.every((c) => c === chars[0])) {
    problems.push({ field, message: `${field} must not be one character repeated` });
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// API token names and lifetimes

export const TOKEN_NAME_LIMITS = { min: 1, max: 64 } as const;
const TOKEN_NAME_CHARS = /^[A-Za-z0-9._-]+$/;
/** The longest an API token may live. */
export const TOKEN_MAX_DAYS = 365;
export const DAY_MS = 86_400_000;

export function tokenNameProblems(name: string): Problem[] {
  const { min, max } = TOKEN_NAME_LIMITS;
  if (name.length < min || name.length > max || !TOKEN_NAME_CHARS.test(name)) {
    return [
      {
        field: 'name',
        message: `name must be ${min}-${max} characters of letters, digits, '.', '_' and '-'; got ${JSON.stringify(name)}`,
      },
    ];
  }
  return [];
}

/**
 * When a new API token expires: `expiresAt` (ms) or `expiresInDays` from now, exactly one of them,
 * in the future and at most {@link TOKEN_MAX_DAYS} days ahead.
 */
export function tokenExpiry(
  input: { readonly expiresAt?: number; readonly expiresInDays?: number },
  now: number,
): { expiresAt?: number; problems: Problem[] } {
  const latest = now + TOKEN_MAX_DAYS * DAY_MS;
  if ((input.expiresAt === undefined) === (input.expiresInDays === undefined)) {
    return {
      problems: [
        {
          field: 'expiresAt',
          message: `give exactly one of expiresAt (an instant at most ${TOKEN_MAX_DAYS} days ahead) and expiresInDays (1-${TOKEN_MAX_DAYS})`,
        },
      ],
    };
  }
  if (input.expiresInDays !== undefined) {
    const days = input.expiresInDays;
    if (!Number.isInteger(days) || days < 1 || days > TOKEN_MAX_DAYS) {
      return {
        problems: [
          {
            field: 'expiresInDays',
            message: `expiresInDays must be a whole number of days, 1-${TOKEN_MAX_DAYS}; got ${days}`,
          },
        ],
      };
    }
    return { expiresAt: now + days * DAY_MS, problems: [] };
  }
  const at = input.expiresAt as number;
  if (!Number.isFinite(at) || at <= now) {
    return { problems: [{ field: 'expiresAt', message: 'expiresAt must be in the future' }] };
  }
  if (at > latest) {
    return {
      problems: [{ field: 'expiresAt', message: `expiresAt must be at most ${TOKEN_MAX_DAYS} days ahead` }],
    };
  }
  return { expiresAt: at, problems: [] };
}

// ---------------------------------------------------------------------------------------------
// Credential formats

/**
 * The secrets handed out, recognisable by their prefix: an API token `trk_<id>_<secret>`, a session
 * `trs_<id>_<secret>`, a rotated bootstrap token `trb_<secret>`. The id (16 hex digits) names the
 * record; the secret is 32 random bytes, base64url (43 characters), kept only as its SHA-256.
 */
export const CREDENTIAL_PREFIX = { token: 'trk_', session: 'trs_', bootstrap: 'trb_' } as const;
export type CredentialKind = 'token' | 'session';

const ID_PART = /^[A-Za-z0-9]{12,64}$/;
const SECRET_PART = /^[A-Za-z0-9_-]{43}$/;

export interface ParsedCredential {
  readonly kind: CredentialKind;
  readonly id: string;
  readonly secret: string;
}

/** An API token or session credential taken apart; undefined when it is neither. */
export function parseCredential(bearer: string): ParsedCredential | undefined {
  const kind: CredentialKind | undefined = bearer.startsWith(CREDENTIAL_PREFIX.token)
    ? 'token'
    : bearer.startsWith(CREDENTIAL_PREFIX.session)
      ? 'session'
      : undefined;
  if (kind === undefined) return undefined;
  const rest = bearer.slice(4);
  const cut = rest.indexOf('_');
  if (cut < 0) return undefined;
  const id = rest.slice(0, cut);
  const secret = rest.slice(cut + 1);
  if (!ID_PART.test(id) || !SECRET_PART.test(secret)) return undefined;
  return { kind, id, secret };
}

export function formatCredential(kind: CredentialKind, id: string, secret: string): string {
  return `${CREDENTIAL_PREFIX[kind]}${id}_${secret}`;
}

// ---------------------------------------------------------------------------------------------
// Failed sign-ins

/**
 * Failed sign-ins are counted per username and per source address. A count lives 15 minutes
 * after its last failure; from the 5th failure on, each failure locks further attempts for 1 s,
 * then 2 s, 4 s, ... at most 15 minutes. Attempts while locked are refused unlooked-at (429) and
 * do not count.
 */
export const LOGIN_THROTTLE = {
  freeFailures: 5,
  windowMs: 15 * 60_000,
  firstLockMs: 1_000,
  maxLockMs: 15 * 60_000,
} as const;

export interface ThrottleState {
  readonly failures: number;
  readonly lastFailureAt: number;
  readonly lockedUntil: number;
}

/** The count as it stands now: a count whose last failure is past the window (and unlocked) is gone. */
export function currentThrottle(state: ThrottleState | undefined, now: number): ThrottleState | undefined {
  if (state === undefined) return undefined;
  if (now - state.lastFailureAt >= LOGIN_THROTTLE.windowMs && now >= state.lockedUntil) return undefined;
  return state;
}

/** The count after one more failure at `now`. */
export function afterFailure(state: ThrottleState | undefined, now: number): ThrottleState {
  const failures = (currentThrottle(state, now)?.failures ?? 0) + 1;
  const over = failures - LOGIN_THROTTLE.freeFailures;
  const lockMs =
    over < 0 ? 0 : Math.min(LOGIN_THROTTLE.maxLockMs, LOGIN_THROTTLE.firstLockMs * 2 ** Math.min(over, 30));
  return { failures, lastFailureAt: now, lockedUntil: now + lockMs };
}

/** Milliseconds left of a lock; 0 when attempts are let through. */
export function lockedFor(state: ThrottleState | undefined, now: number): number {
  const current = currentThrottle(state, now);
  return current === undefined ? 0 : Math.max(0, current.lockedUntil - now);
}

/**
 * The key a source address is counted under: an IPv4 address as it is, an IPv6 one by its /64
 * (one host usually has a whole /64); undefined when the address is unknown (not counted).
 */
export function sourceKey(ip: string): string | undefined {
  const address = ip.trim().toLowerCase();
  if (address === '') return undefined;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (mapped) return mapped[1];
  if (!address.includes(':')) return address;
  const [head = '', tail] = address.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  const full = [...left, ...Array<string>(Math.max(0, missing)).fill('0'), ...right];
  return `${full
    .slice(0, 4)
    .map((h) => h.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
