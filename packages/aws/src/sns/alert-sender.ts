import { PublishCommand, type SNSClient } from '@aws-sdk/client-sns';
import { ALERT_SEND_TIMEOUT_MS, type AlertSender } from '@tickring/core/alerts';
import type { Logger } from '@tickring/core/common';

type EmailSender = AlertSender['email'];

/**
 * Sends alerts: webhook and slack channels by an HTTP POST (redirects not followed, the answer's body
 * not read, `ALERT_SEND_TIMEOUT_MS` at most), email channels by `email` (the SNS topic on AWS, the
 * log locally).
 */
export function httpAlertSender(options: {
  email: EmailSender;
  timeoutMs?: number;
  fetch?: typeof fetch;
}): AlertSender {
  const doFetch = options.fetch ?? fetch;
  return {
    async post(url, body, headers) {
      const response = await doFetch(url, {
        method: 'POST',
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(options.timeoutMs ?? ALERT_SEND_TIMEOUT_MS),
      });
      await response.body?.cancel().catch(() => undefined);
      return response.status;
    },
    email: options.email,
  };
}

/** Email channels on AWS: the alarm topic, with the channel id (for a subscription's filter policy), job and group. */
export function snsAlertEmail(options: { sns: SNSClient; topicArn: string }): EmailSender {
  return async (subject, text, attributes) => {
    await options.sns.send(
      new PublishCommand({
        TopicArn: options.topicArn,
        Subject: subject.slice(0, 99),
        Message: text,
        MessageAttributes: {
          alertChannel: { DataType: 'String', StringValue: attributes.channelId },
          jobId: { DataType: 'Number', StringValue: String(attributes.jobId) },
          appName: { DataType: 'String', StringValue: attributes.appName },
        },
      }),
    );
  };
}

/** Email channels with no topic (the local stack): the message is logged. */
export function loggedAlertEmail(logger: Logger): EmailSender {
  return async (subject, text, attributes) => {
    logger.warn('alert email (logged: no alarm topic here)', { subject, text, ...attributes });
  };
}
