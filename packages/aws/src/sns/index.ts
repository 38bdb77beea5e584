export { createAlarmPublisher } from './alarms.js';
