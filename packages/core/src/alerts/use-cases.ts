export {
  type AdminAlertsDeps,
  type AlertSilenceInput,
  checkAlertSilence,
  createAlertChannel,
  createAlertSilence,
  deleteAlertChannel,
  deleteAlertSilence,
  listAlertChannels,
  missingChannelProblems,
} from './admin-alerts.js';
export {
  type AlertDeliveryDeps,
  type AlertSweepResult,
  deliverAlert,
  driveAlertDeliveries,
} from './alert-delivery.js';
export { type AlertRoutingDeps, channelsFor, RoutingAlarmPublisher, recordAlarm } from './alert-routing.js';
