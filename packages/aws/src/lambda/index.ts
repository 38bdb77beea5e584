export { createExecutorTransport } from './executor-transport.js';
export { LAMBDA_SCHEME, LambdaExecutorTransport } from './lambda-transport.js';
