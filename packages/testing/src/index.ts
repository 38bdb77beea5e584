export { memoryDispatchDeps } from './dispatch-doubles.js';
export { testGroup, testJob, testRun } from './dispatch-fixtures.js';
export { FakeClock } from './fake-clock.js';
export {
  CONFIGURED_BOOTSTRAP,
  identityFixture,
  loggedText,
  MAX_MS,
  MemoryPrincipalStore,
} from './identity-doubles.js';
export { identityLifecycleSuite } from './identity-lifecycle.js';
export { makeJob } from './jobs.js';
export { makeRun, OutcomeFakes } from './outcome-fakes.js';
