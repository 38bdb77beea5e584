import { Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';

export interface AlarmTopicProps {
  /** An address subscribed to the topic (it must confirm the subscription by e-mail). @default none */
  readonly email?: string;
}

/**
 * The SNS topic every alarm goes to: job failures published by the functions (callback, dispatcher,
 * monitors) and the CloudWatch alarms on the scheduler itself. TLS is required for publishing.
 */
export class AlarmTopic extends Construct {
  readonly topic: sns.Topic;

  constructor(scope: Construct, id: string, props: AlarmTopicProps = {}) {
    super(scope, id);
    this.topic = new sns.Topic(this, 'Topic', { displayName: 'tickring alarms', enforceSSL: true });
    // enforceSSL gives the topic a policy of its own, which replaces the default one; CloudWatch
    // alarms of this account must then be allowed to publish explicitly.
    const { account, region, partition } = Stack.of(this);
    this.topic.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'AllowCloudWatchAlarms',
        principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': account },
          ArnLike: { 'aws:SourceArn': `arn:${partition}:cloudwatch:${region}:${account}:alarm:*` },
        },
      }),
    );
    if (props.email) this.topic.addSubscription(new subscriptions.EmailSubscription(props.email));
  }
}
