/** People and credentials: sign-in, sessions, users, API tokens, the bootstrap token, who am I, and whether a caller may. */
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
export { type CallerInfo, me, type Permissions, permissionsOf } from './me.js';
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
