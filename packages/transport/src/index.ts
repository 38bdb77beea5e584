export { HttpExecutorTransport } from './executor-http.js';
