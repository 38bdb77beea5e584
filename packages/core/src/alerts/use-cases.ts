export {
  type AdminAlertsDeps,
  type AlertChannelTestResult,
  type AlertSilenceInput,
  checkAlertSilence,
  createAlertChannel,
  createAlertSilence,
  deleteAlertChannel,
  deleteAlertSilence,
  getAlertChannel,
  listAlertChannels,
  testAlertChannel,
  updateAlertChannel,
} from './admin-alerts.js';
export {
  type AlertDeliveryDeps,
  type AlertSweepResult,
  deliverAlert,
  driveAlertDeliveries,
  sendToChannel,
} from './alert-delivery.js';
export { type AlertRoutingDeps, channelsFor, RoutingAlarmPublisher, recordAlarm } from './alert-routing.js';
export { channelUsers, missingChannelProblems } from './channel-references.js';
