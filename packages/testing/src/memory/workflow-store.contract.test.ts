import { workflowStoreContract } from '../contracts/workflow-store.js';
import { MemoryWorkflowStore } from './workflow-store.js';

workflowStoreContract('in memory', () => new MemoryWorkflowStore());
