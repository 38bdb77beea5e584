export {
  ConfigError,
  ENV,
  type Env,
  optionalString,
  requireString,
  requireToken,
  type TokenSource,
} from './env.js';
export { loadSetting, SETTINGS } from './settings.js';
