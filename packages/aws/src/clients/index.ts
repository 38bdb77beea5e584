export {
  type AwsClientOptions,
  type AwsClients,
  createAwsClients,
  destroyAwsClients,
} from './aws-clients.js';
export { loadAwsConfig, loadRingQueueUrls, loadTables, tableEnvName } from './aws-config.js';
