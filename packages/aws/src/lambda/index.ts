export { LambdaDispatcherHandOff, MAX_EVENT_PAYLOAD_BYTES } from './dispatcher-hand-off.js';
export { createExecutorTransport } from './executor-transport.js';
export { LAMBDA_SCHEME, LambdaExecutorTransport } from './lambda-transport.js';
