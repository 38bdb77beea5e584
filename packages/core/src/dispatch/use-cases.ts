export { type AdminTriggerDeps, type TriggerAccepted, triggerJob } from './admin-trigger.js';
export {
  BatchReads,
  DISPATCH_DEFAULTS,
  type DispatchDeps,
  DispatchRecord,
  type DispatchSettings,
  dispatchFire,
} from './dispatch-fire.js';
