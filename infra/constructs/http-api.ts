import { HTTP_ROUTES, type HttpFunction } from '@tickring/aws/topology';
import { RemovalPolicy } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as integrations from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { acknowledgeNag } from './nag-acknowledgments.js';

export interface ApiThrottle {
  /** Steady-state requests per second, across all routes. */
  readonly rateLimit: number;
  /** Burst bucket size. */
  readonly burstLimit: number;
}

/** XXL-JOB executors beat every 30 s; this leaves room for thousands of executors and the console. */
export const DEFAULT_API_THROTTLE: ApiThrottle = { rateLimit: 200, burstLimit: 400 };

export interface HttpApiProps {
  /** The function behind each route target of HTTP_ROUTES. */
  readonly targets: Readonly<Record<HttpFunction, lambda.IFunction>>;
  /** Default stage throttling. @default DEFAULT_API_THROTTLE */
  readonly throttle?: ApiThrottle;
  /** Retention of the access log group. @default logs.RetentionDays.ONE_MONTH */
  readonly logRetention?: logs.RetentionDays;
}

/**
 * One JSON line per request in the access log (HTTP API `$context` variables): who asked what, the
 * answer, and where the time went. No header is logged, so no token is.
 */
export const ACCESS_LOG_FIELDS: Readonly<Record<string, string>> = {
  requestId: '$context.requestId',
  time: '$context.requestTime',
  sourceIp: '$context.identity.sourceIp',
  userAgent: '$context.identity.userAgent',
  method: '$context.httpMethod',
  path: '$context.path',
  routeKey: '$context.routeKey',
  protocol: '$context.protocol',
  status: '$context.status',
  responseLength: '$context.responseLength',
  responseLatencyMs: '$context.responseLatency',
  integrationLatencyMs: '$context.integrationLatency',
  integrationError: '$context.integrationErrorMessage',
  error: '$context.error.message',
};

/**
 * Why the routes have no API Gateway authorizer (cdk-nag AwsSolutions-APIG4): each function
 * authenticates every request by the route table.
 */
export const NO_AUTHORIZER_REASON =
  'the functions authenticate every request by the route table: /v1 takes a session, API token or the ' +
  "bootstrap token as Bearer and checks each route's access (some routes, such as sign-in, are public " +
  "by design); /api and /xxl-job-admin/api take XXL-JOB's access token, per group or global, which " +
  'executors send as XXL-JOB-ACCESS-TOKEN. A gateway authorizer could express neither.';

/** Splits an API Gateway route key such as `ANY /v1/{proxy+}`. */
export function parseRouteKey(routeKey: string): { method: apigw.HttpMethod; path: string } {
  const [method = '', path = ''] = routeKey.split(' ');
  const httpMethod = Object.values(apigw.HttpMethod).find((m) => m === method);
  if (!httpMethod || !path.startsWith('/')) throw new Error(`not an HTTP API route key: "${routeKey}"`);
  return { method: httpMethod, path };
}

/**
 * The HTTP API (API Gateway v2): exactly the routes of `shared/schema/http-routes.ts`, the ones the
 * local gateway serves, each a Lambda proxy integration with payload format 2.0; one `$default`
 * stage, auto-deployed, with default throttling and a JSON access log (ACCESS_LOG_FIELDS) in a log
 * group of its own. Authentication is in the functions (admin Bearer token, XXL-JOB access token), as
 * in the local stack.
 */
export class HttpApi extends Construct {
  readonly api: apigw.HttpApi;
  readonly stage: apigw.HttpStage;
  readonly accessLogs: logs.LogGroup;

  constructor(scope: Construct, id: string, props: HttpApiProps) {
    super(scope, id);
    this.api = new apigw.HttpApi(this, 'Api', {
      description: 'tickring admin API (/v1) and XXL-JOB executor API (/api, /xxl-job-admin/api)',
      createDefaultStage: false,
    });
    const throttle = props.throttle ?? DEFAULT_API_THROTTLE;
    this.accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: props.logRetention ?? logs.RetentionDays.ONE_MONTH,
      // As the functions' logs: they expire by retention; a retained group would be an orphan after destroy.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.stage = this.api.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: throttle.rateLimit, burstLimit: throttle.burstLimit },
      accessLogSettings: {
        destination: new apigw.LogGroupLogDestination(this.accessLogs),
        format: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
      },
    });

    const integrationsByTarget = new Map<HttpFunction, integrations.HttpLambdaIntegration>();
    for (const route of HTTP_ROUTES) {
      let integration = integrationsByTarget.get(route.target);
      if (!integration) {
        integration = new integrations.HttpLambdaIntegration(
          `${route.target}Integration`,
          props.targets[route.target],
          {
            payloadFormatVersion: apigw.PayloadFormatVersion.VERSION_2_0,
          },
        );
        integrationsByTarget.set(route.target, integration);
      }
      const { method, path } = parseRouteKey(route.routeKey);
      const httpRoute = new apigw.HttpRoute(this, `Route${route.routeKey.replace(/[^A-Za-z0-9]/g, '')}`, {
        httpApi: this.api,
        routeKey: apigw.HttpRouteKey.with(path, method),
        integration,
      });
      acknowledgeNag(httpRoute, 'AwsSolutions-APIG4', NO_AUTHORIZER_REASON);
    }
  }

  /** The API's base URL, ending in `/`. */
  get url(): string {
    return this.stage.url;
  }
}
