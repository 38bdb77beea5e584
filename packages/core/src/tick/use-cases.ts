export { TickAdmission } from './admission.js';
export { lastPlanFires, type ReplanResult, replanLostFires } from './replan-lost-fires.js';
export {
  DEFAULT_PRE_READ_MS,
  planHorizonMs,
  runTickLoop,
  type TickDeps,
  type TickSettings,
  tickOnce,
} from './run-tick.js';
