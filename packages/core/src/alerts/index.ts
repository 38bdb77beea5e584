export {
  ALERT_RETRY_DELAYS_MS,
  ALERT_SEND_TIMEOUT_MS,
  ALERT_WINDOW_MS,
  type Alert,
  type AlertDelivery,
  type AlertSilence,
  type AlertState,
  afterAttempt,
  alertIdOf,
  DELIVERY_STATES,
  type DeliveryAttempt,
  type DeliveryState,
  dueAtOf,
  idempotencyKeyOf,
  silenceMatches,
  windowStartOf,
  withDueAt,
} from './alert.js';
export {
  ALERT_CHANNEL_KINDS,
  ALERT_CHANNEL_LIMITS,
  type AlertChannel,
  type AlertChannelInput,
  type AlertChannelKind,
  type AlertChannelView,
  alertChannelView,
  checkAlertChannel,
} from './alert-channel.js';
export type { AlertSender } from './alert-delivery.js';
export {
  type AlertFields,
  alertFields,
  alertText,
  IDEMPOTENCY_HEADER,
  renderAlertTemplate,
  SIGNATURE_HEADER,
  signBody,
  slackBody,
} from './alert-message.js';
export type { AlertQuery, AlertStore } from './alert-store.js';
