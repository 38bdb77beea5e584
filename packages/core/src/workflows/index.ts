export {
  EDGE_CONDITIONS,
  type JsonValue,
  NODE_STATUSES,
  type NodeState,
  type NodeStatus,
  OVERLAP_POLICIES,
  parseWorkflow,
  readNodeResult,
  validateWorkflow,
  WORKFLOW_DEFAULTS,
  WORKFLOW_LIMITS,
  type WorkflowDefinition,
  type WorkflowRunState,
} from './model/index.js';
export { WORKFLOW_RUN_ID, type WorkflowLink } from './model/link.js';
export { parseTemplate, renderTemplate } from './model/template.js';
export type {
  Admission,
  AdmitResult,
  NodeFireState,
  NodeRuns,
  NodeTimes,
  ShardOutcome,
  StoredRunStatus,
  WorkflowQuery,
  WorkflowRecord,
  WorkflowRunQuery,
  WorkflowRunRecord,
  WorkflowRunTrigger,
  WorkflowStore,
} from './workflow-store.js';
