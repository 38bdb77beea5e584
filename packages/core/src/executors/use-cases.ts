export {
  type AdminExecutorsDeps,
  type ExecutorSettings,
  type GroupExecutors,
  listExecutors,
} from './admin-executors.js';
export {
  type AdminGroupsDeps,
  createGroup,
  deleteGroup,
  getGroup,
  listGroups,
  updateGroup,
} from './admin-groups.js';
export { type ExecutorRequestScope, executorAuthorizer } from './executor-auth.js';
export {
  clearGroupAccessToken,
  GROUP_TOKEN_LIMITS,
  type GroupTokenDeps,
  type GroupTokenSet,
  groupAccessTokens,
  setGroupAccessToken,
} from './group-access-tokens.js';
export {
  groupAddresses,
  type Registration,
  type RegistryDeps,
  registerExecutor,
  removeExecutor,
} from './registry.js';
