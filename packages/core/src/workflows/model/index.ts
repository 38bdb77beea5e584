/**
 * Workflows: DAGs of jobs with parameters passed from node to node, each node run exactly once per
 * attempt, resumable. The pure core: the definition and its checks (definition.ts), the graph
 * (graph.ts), parameter templates (template.ts), a run's progress (progress.ts) and the overlap
 * policy (overlap.ts). Storage, API and the engine build on these.
 */
export {
  OVERLAP_POLICIES,
  type OverlapPolicy,
  parseWorkflow,
  type UpstreamEdge,
  validateWorkflow,
  WORKFLOW_DEFAULTS,
  WORKFLOW_FIELDS,
  WORKFLOW_LIMITS,
  type WorkflowDefinition,
  type WorkflowNode,
  type WorkflowValidation,
} from './definition.js';
export { type JsonObject, type JsonValue, utf8Bytes } from './json.js';
export { type OverlapDecision, overlapDecision } from './overlap.js';
export {
  cancelRun,
  type Decisions,
  MAX_RUN_INPUT_BYTES,
  type NodeOutcome,
  type NodeState,
  nodeParameter,
  onNodeFinished,
  type RunEnd,
  retryRun,
  startRun,
  type WorkflowRunState,
} from './progress.js';
export {
  EDGE_CONDITIONS,
  type EdgeCondition,
  isTerminal,
  NODE_STATUSES,
  type NodeStatus,
  RUN_STATUSES,
  type WorkflowRunStatus,
} from './status.js';
export {
  type NodeView,
  type ParsedTemplate,
  type PathSegment,
  parseTemplate,
  readNodeResult,
  renderTemplate,
  TEMPLATE_LIMITS,
  type TemplateContext,
  type TemplatePath,
  type TemplateResult,
} from './template.js';
