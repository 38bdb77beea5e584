import { HTTP_ROUTES, type HttpFunction } from '@tickring/aws/topology';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as integrations from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';

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
}

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
 * stage, auto-deployed, with default throttling. Authentication is in the functions (admin Bearer
 * token, XXL-JOB access token), as in the local stack.
 */
export class HttpApi extends Construct {
  readonly api: apigw.HttpApi;
  readonly stage: apigw.HttpStage;

  constructor(scope: Construct, id: string, props: HttpApiProps) {
    super(scope, id);
    this.api = new apigw.HttpApi(this, 'Api', {
      description: 'tickring admin API (/v1) and XXL-JOB executor API (/api, /xxl-job-admin/api)',
      createDefaultStage: false,
    });
    const throttle = props.throttle ?? DEFAULT_API_THROTTLE;
    this.stage = this.api.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: throttle.rateLimit, burstLimit: throttle.burstLimit },
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
      new apigw.HttpRoute(this, `Route${route.routeKey.replace(/[^A-Za-z0-9]/g, '')}`, {
        httpApi: this.api,
        routeKey: apigw.HttpRouteKey.with(path, method),
        integration,
      });
    }
  }

  /** The API's base URL, ending in `/`. */
  get url(): string {
    return this.stage.url;
  }
}
