export {
  type AlarmChannel,
  type AlarmPayload,
  createAlarmPublisher,
  MultiChannelAlarmPublisher,
  webhookChannel,
} from './alarms.js';
export { httpAlertSender, loggedAlertEmail, snsAlertEmail } from './alert-sender.js';
