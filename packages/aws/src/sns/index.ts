export {
  type AlarmChannel,
  type AlarmPayload,
  createAlarmPublisher,
  MultiChannelAlarmPublisher,
  webhookChannel,
} from './alarms.js';
