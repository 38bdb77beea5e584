export {
  type AdminWorkflowsDeps,
  cancelWorkflowRun,
  createWorkflow,
  deleteWorkflow,
  getWorkflow,
  getWorkflowRun,
  listWorkflowRuns,
  listWorkflows,
  retryWorkflowRun,
  setWorkflowStatus,
  triggerWorkflow,
  updateWorkflow,
} from './admin-workflows.js';
export { WorkflowFireHook, type WorkflowFireHookDeps } from './dispatch-hook.js';
export {
  sweepWorkflowDeadlines,
  type WorkflowDeadlinesDeps,
  type WorkflowDeadlinesResult,
  workflowDeadlineStatus,
} from './workflow-deadlines.js';
export { WorkflowEngine, type WorkflowEngineDeps } from './workflow-engine.js';
export {
  type WorkflowLedger,
  type WorkflowLedgerDeps,
  type WorkflowLedgerEntry,
  workflowFireLedger,
} from './workflow-ledger.js';
