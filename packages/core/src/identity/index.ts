/** People and credentials: authentication, sign-in, users, API tokens, the bootstrap token, who am I. */

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
  type CreatedToken,
  createApiToken,
  getApiToken,
  listApiTokens,
  revokeApiToken,
  type TokenCreateInput,
} from './api-tokens.js';
export { authenticate, INVALID_BEARER_MESSAGE, type RequestSource } from './authenticate.js';
export { type AuthorizeDeps, authorize, type Subject } from './authorize.js';
export { bootstrapRotation, type RotatedBootstrap, rotateBootstrapToken } from './bootstrap.js';
export {
  type IdentityDeps,
  TOUCH_INTERVAL_MS,
  type TokenInfo,
  type TokenStatus,
  tokenInfo,
  type UserInfo,
  userInfo,
} from './deps.js';
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
export { type CallerInfo, me, type Permissions, permissionsOf } from './me.js';
export { type PasswordHasher, scryptHasher } from './password.js';
export type {
  BootstrapRecord,
  PrincipalStore,
  SessionRecord,
  ThrottleRecord,
  TokenRecord,
  UserRecord,
} from './principal-store.js';
export {
  LOGIN_FAILED_MESSAGE,
  type LoginInput,
  type LoginResult,
  login,
  logout,
  type SignInOptions,
  signInOptions,
} from './sessions.js';
export {
  changeOwnPassword,
  createUser,
  deleteUser,
  getUser,
  listUsers,
  type PasswordChangeInput,
  type UserCreateInput,
  type UserUpdateInput,
  updateUser,
} from './users.js';
