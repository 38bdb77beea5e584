import { Duration } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';

export interface MinuteScheduleProps {
  readonly target: lambda.IFunction;
  /**
   * How many invocations the rule starts each minute: one target per invocation, all the same
   * function. @default 1
   */
  readonly invocationsPerMinute?: 1 | 2;
  readonly description?: string;
}

/**
 * An EventBridge rule `rate(1 minute)` that invokes a function once or several times a minute, each
 * time with the plain Scheduled Event. A delivery that cannot be made within two minutes is dropped:
 * the next minute's invocation does the same work.
 */
export class MinuteSchedule extends Construct {
  readonly rule: events.Rule;

  constructor(scope: Construct, id: string, props: MinuteScheduleProps) {
    super(scope, id);
    this.rule = new events.Rule(this, 'Rule', {
      description: props.description,
      schedule: events.Schedule.rate(Duration.minutes(1)),
    });
    const count = props.invocationsPerMinute ?? 1;
    for (let i = 0; i < count; i++) {
      this.rule.addTarget(
        new targets.LambdaFunction(props.target, { maxEventAge: Duration.minutes(2), retryAttempts: 2 }),
      );
    }
  }
}
