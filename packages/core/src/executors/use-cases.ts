export {
  type AdminExecutorsDeps,
  type AdminRefusalsDeps,
  type ExecutorSettings,
  type GroupExecutors,
  listExecutors,
  listRefusedRegistrations,
} from './admin-executors.js';
export {
  type AdminGroupsDeps,
  createGroup,
  deleteGroup,
  getGroup,
  listGroups,
  updateGroup,
} from './admin-groups.js';
export {
  type ExecutorAuthRefusal,
  type ExecutorRequestScope,
  executorAuthorizer,
} from './executor-auth.js';
export {
  clearGroupAccessToken,
  GROUP_TOKEN_LIMITS,
  type GroupTokenDeps,
  type GroupTokenSet,
  groupAccessTokens,
  setGroupAccessToken,
} from './group-access-tokens.js';
export {
  DEFAULT_REFUSAL_RECORDER_SETTINGS,
  type ExecutorRefusalEvent,
  type RefusalRecorderDeps,
  type RefusalRecorderSettings,
  refusalRecorder,
} from './refusal-recorder.js';
export {
  groupAddresses,
  type Registration,
  type RegistryDeps,
  registerExecutor,
  removeExecutor,
} from './registry.js';
