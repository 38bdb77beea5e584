/** People and credentials: roles and grants, principals, password hashing, the principal store. */
export {
  type AccessTarget,
  ALL_GROUPS,
  BOOTSTRAP_PRINCIPAL,
  type Grant,
  type Principal,
  ROLES,
  type Role,
  type RouteAccess,
  visibleGroups,
} from './access.js';
export {
  afterFailure,
  DAY_MS,
  DISPLAY_NAME_MAX,
  GRANT_MAX_GROUPS,
  LOGIN_THROTTLE,
  PASSWORD_LIMITS,
  TOKEN_MAX_DAYS,
  TOKEN_NAME_LIMITS,
  USERNAME_LIMITS,
} from './identity.js';
export { type PasswordHasher, SCRYPT_COST, SCRYPT_DEFAULTS, scryptHasher } from './password.js';
export {
  type BootstrapRecord,
  type PrincipalStore,
  type SessionRecord,
  type ThrottleRecord,
  TOKEN_KEPT_AFTER_END_MS,
  type TokenRecord,
  type UserRecord,
} from './principal-store.js';
