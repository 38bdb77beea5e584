export { FUNCTIONS, type FunctionDefinition, type FunctionName } from './functions.js';
export { HTTP_ROUTES, type HttpFunction, matchHttpRoute } from './http-routes.js';
export { QUEUE_LIST, QUEUES, type QueueDefinition, type QueueName } from './queues.js';
export {
  createTableInput,
  type KeyDefinition,
  TABLE_LIST,
  TABLES,
  type TableDefinition,
  type TableName,
} from './tables.js';
