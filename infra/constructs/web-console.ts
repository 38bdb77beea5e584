import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { EDGE_SECRET_HEADER } from '@tickring/api/http';
import { HTTP_ROUTES } from '@tickring/aws/topology';
import { CONSOLE_DIST_DIR } from '@tickring/console/dist-dir';
import { ASSET_CACHE_CONTROL, CONSOLE_HEADERS, INDEX_CACHE_CONTROL } from '@tickring/console/headers';
import {
  Annotations,
  Aws,
  DefaultStackSynthesizer,
  Duration,
  Fn,
  Names,
  RemovalPolicy,
  Stack,
} from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import type * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { acknowledgeNag, wildcardResourceFinding } from './nag-acknowledgments.js';

/** The behaviour that sends the console's API calls to the HTTP API, on the console's own origin. */
export const CONSOLE_API_PATH_PATTERN = '/v1/*';

/** Vite's content-hashed output directory (under the dist directory and in the bucket). */
const HASHED_DIR = 'assets';

/** How long the access logs bucket keeps the console bucket's and CloudFront's access logs. */
export const DEFAULT_ACCESS_LOG_EXPIRATION = Duration.days(90);

/** Where each access log goes in the access logs bucket. */
export const ACCESS_LOG_PREFIXES = { bucket: 's3/console-bucket/', distribution: 'cloudfront/' } as const;

/**
 * The path prefixes the HTTP API owns (`/v1/`, `/api/`, `/xxl-job-admin/api/`), from the route table.
 * None of them is a console route: on the console's domain only `/v1/*` reaches the API, the rest
 * (the bare `/v1`, the executors' `/api/...`) is answered 404 by the rewrite function, as the local
 * gateway does, rather than with index.html.
 */
export const API_PATH_PREFIXES: readonly string[] = HTTP_ROUTES.map((route) =>
  (route.routeKey.split(' ')[1] ?? '').replace('{proxy+}', ''),
);

/**
 * The CloudFront Function (cloudfront-js-2.0, viewer request) of the console's default behaviour: a
 * path whose last segment has no extension is a client-side route (`/`, `/jobs/7`, `/runs`) and is
 * fetched as `/index.html` (the query string is kept: it is not part of `uri`); a path with an
 * extension is fetched as is, so a missing asset stays a 404. Done here rather than with custom error
 * responses, which are distribution-wide and would turn the API's own 403/404 answers into index.html.
 */
export function consoleRewriteSource(apiPrefixes: readonly string[] = API_PATH_PREFIXES): string {
  return [
    `var API_PREFIXES = ${JSON.stringify(apiPrefixes)};`,
    'function handler(event) {',
    '  var request = event.request;',
    '  var uri = request.uri;',
    '  for (var i = 0; i < API_PREFIXES.length; i++) {',
    '    var prefix = API_PREFIXES[i];',
    '    if (uri === prefix.slice(0, -1) || uri.indexOf(prefix) === 0) {',
    "      return { statusCode: 404, statusDescription: 'Not Found' };",
    '    }',
    '  }',
    "  var last = uri.slice(uri.lastIndexOf('/') + 1);",
    "  if (last.indexOf('.') === -1) request.uri = '/index.html';",
    '  return request;',
    '}',
    '',
  ].join('\n');
}

/**
 * CONSOLE_HEADERS (one definition, the local gateway sends the same) as a CloudFront response headers
 * policy: the headers CloudFront models as security headers take their typed form, any other one is a
 * custom header. A value CloudFront cannot express fails synthesis rather than being dropped.
 */
export function consoleResponseHeaders(headers: Readonly<Record<string, string>> = CONSOLE_HEADERS): {
  securityHeadersBehavior: cloudfront.ResponseSecurityHeadersBehavior;
  customHeadersBehavior?: cloudfront.ResponseCustomHeadersBehavior;
} {
  const security: {
    -readonly [K in keyof cloudfront.ResponseSecurityHeadersBehavior]: cloudfront.ResponseSecurityHeadersBehavior[K];
  } = {};
  const custom: cloudfront.ResponseCustomHeader[] = [];
  const unsupported = (name: string, value: string): Error =>
    new Error(`console header ${name}: "${value}" has no CloudFront response headers policy form`);
  for (const [rawName, value] of Object.entries(headers)) {
    const name = rawName.toLowerCase();
    switch (name) {
      case 'content-security-policy':
        security.contentSecurityPolicy = { contentSecurityPolicy: value, override: true };
        break;
      case 'x-content-type-options':
        if (value.toLowerCase() !== 'nosniff') throw unsupported(name, value);
        security.contentTypeOptions = { override: true };
        break;
      case 'x-frame-options': {
        const frameOption = Object.values(cloudfront.HeadersFrameOption).find(
          (o) => o === value.toUpperCase(),
        );
        if (!frameOption) throw unsupported(name, value);
        security.frameOptions = { frameOption, override: true };
        break;
      }
      case 'referrer-policy': {
        const referrerPolicy = Object.values(cloudfront.HeadersReferrerPolicy).find(
          (p) => p === value.toLowerCase(),
        );
        if (!referrerPolicy) throw unsupported(name, value);
        security.referrerPolicy = { referrerPolicy, override: true };
        break;
      }
      case 'strict-transport-security': {
        const directives = value.split(';').map((d) => d.trim().toLowerCase());
        const maxAge = /^max-age=(\d+)$/.exec(directives[0] ?? '')?.[1];
        const rest = directives.slice(1).filter(Boolean);
        if (maxAge === undefined || rest.some((d) => d !== 'includesubdomains' && d !== 'preload')) {
          throw unsupported(name, value);
        }
        security.strictTransportSecurity = {
          accessControlMaxAge: Duration.seconds(Number(maxAge)),
          includeSubdomains: rest.includes('includesubdomains'),
          preload: rest.includes('preload'),
          override: true,
        };
        break;
      }
      case 'x-xss-protection':
        throw unsupported(name, value);
      default:
        custom.push({ header: rawName, value, override: true });
    }
  }
  return {
    securityHeadersBehavior: security,
    ...(custom.length ? { customHeadersBehavior: { customHeaders: custom } } : {}),
  };
}

export interface WebConsoleProps {
  /** The HTTP API the console calls: its `/v1/*` is served on the console's own origin. */
  readonly httpApi: apigw.IHttpApi;
  /**
   * Sent to the API on every `/v1/*` origin request as `x-tickring-edge-secret` (a CloudFormation
   * dynamic reference: the value is resolved at deploy time, never in the template), so the api
   * believes the `CloudFront-Viewer-Address` of those requests, and of no others.
   */
  readonly edgeSecret: secretsmanager.ISecret;
  /** The built console (`npm run build`). @default CONSOLE_DIST_DIR (console/dist) */
  readonly distDir?: string;
  /** What CloudFormation does with the bucket, as with the stack's other data. @default RemovalPolicy.RETAIN */
  readonly removalPolicy?: RemovalPolicy;
  /** How long access logs are kept. @default DEFAULT_ACCESS_LOG_EXPIRATION (90 days) */
  readonly accessLogExpiration?: Duration;
  /** Retention of the deployment handler's log group. @default logs.RetentionDays.ONE_MONTH */
  readonly logRetention?: logs.RetentionDays;
  /**
   * The console's own domain: viewers get TLS 1.2 at least (TLSv1.2_2021, SNI). Without one the console
   * is on its `*.cloudfront.net` name, whose certificate CloudFront serves down to TLSv1 whatever the
   * distribution asks. @default none
   */
  readonly domain?: ConsoleDomain;
}

export interface ConsoleDomain {
  /** The names viewers use (each a CNAME or alias of the distribution's domain name). */
  readonly domainNames: readonly string[];
  /** An ACM certificate in us-east-1 covering every name. */
  readonly certificate: acm.ICertificate;
}

/**
 * The web console on AWS: its built files in a private S3 bucket (no public access, TLS only,
 * S3-managed encryption), read by one CloudFront distribution through Origin Access Control.
 *
 * - Default behaviour (the console): HTTPS only (HTTP redirected), cached (CACHING_OPTIMIZED, which
 *   honours the objects' Cache-Control: hashed `assets/*` immutable, everything else `no-cache`), a
 *   viewer-request function rewriting client-side routes to `/index.html`, and the response headers
 *   policy of CONSOLE_HEADERS (CSP, HSTS, nosniff, DENY, no-referrer).
 * - `/v1/*`: the stack's HTTP API (HTTPS only), never cached, every method, every viewer header but
 *   Host (so Authorization reaches the API: CACHING_DISABLED + ALL_VIEWER_EXCEPT_HOST_HEADER), so the
 *   console calls its API on its own origin (CSP `connect-src 'self'`, no CORS). The managed policy
 *   also adds CloudFront's device type and viewer location headers, `CloudFront-Viewer-Address` (the
 *   viewer's `ip:port`) among them; no custom policy could do all of that: an allow list may not name
 *   Authorization, "all viewer headers and these CloudFront ones" forwards Host (API Gateway refuses
 *   a foreign Host), and "all viewer headers except" names only headers to leave out. The origin adds
 *   the edge secret header (`edgeSecret`, replacing any a viewer sent), which proves to the api that
 *   the viewer address is CloudFront's word.
 *
 * Two deployments fill the bucket: the hashed assets first (never pruned, so a page still showing the
 * previous index.html finds its files), then the rest with index.html, pruned, and an invalidation of
 * `/index.html` (every client-side route is fetched as that object). Their handler (aws-s3-deployment's
 * singleton Lambda) runs with a role of its own, without AWSLambdaBasicExecutionRole, logging to a log
 * group with a retention.
 *
 * Access logs of the bucket (S3 server access logs) and of the distribution (CloudFront standard logs)
 * go to a private access logs bucket that expires them (`accessLogExpiration`).
 */
export class WebConsole extends Construct {
  readonly bucket: s3.Bucket;
  readonly accessLogsBucket: s3.Bucket;
  readonly distribution: cloudfront.Distribution;
  readonly rewrite: cloudfront.Function;
  readonly responseHeadersPolicy: cloudfront.ResponseHeadersPolicy;
  readonly assetsDeployment: s3deploy.BucketDeployment;
  readonly siteDeployment: s3deploy.BucketDeployment;
  /** The deployments' handler role (instead of the one aws-s3-deployment makes). */
  readonly deploymentRole: iam.Role;
  readonly deploymentLogs: logs.LogGroup;
  private readonly domainNames: readonly string[];

  constructor(scope: Construct, id: string, props: WebConsoleProps) {
    super(scope, id);
    const distDir = props.distDir ?? CONSOLE_DIST_DIR;
    if (!existsSync(join(distDir, 'index.html'))) {
      throw new Error(
        `The web console is not built: ${join(distDir, 'index.html')} is missing. Run \`npm run build\` ` +
          '(or `npm run build -w console`) before `npm run synth`, `npm run deploy` or the infra tests.',
      );
    }
    const removalPolicy = props.removalPolicy ?? RemovalPolicy.RETAIN;
    // Response headers policies and origin access controls are named per account, across regions: the
    // same stack in two regions must not collide (the CloudFront Function's name has the region already).
    const accountWideName = (what: string) =>
      `${Names.uniqueResourceName(this, { maxLength: 40 })}-${what}-${Aws.REGION}`;

    this.accessLogsBucket = new s3.Bucket(this, 'AccessLogs', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      // CloudFront's standard logs are written with an ACL grant (to the awslogsdelivery account): the
      // bucket must accept ACLs; the objects still belong to the bucket owner.
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      lifecycleRules: [{ expiration: props.accessLogExpiration ?? DEFAULT_ACCESS_LOG_EXPIRATION }],
      removalPolicy,
      autoDeleteObjects: removalPolicy === RemovalPolicy.DESTROY,
    });

    this.bucket = new s3.Bucket(this, 'Bucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      serverAccessLogsBucket: this.accessLogsBucket,
      serverAccessLogsPrefix: ACCESS_LOG_PREFIXES.bucket,
      removalPolicy,
      // A destroyed stack takes its (rebuildable) console files with it; a retained bucket keeps them.
      autoDeleteObjects: removalPolicy === RemovalPolicy.DESTROY,
    });

    this.rewrite = new cloudfront.Function(this, 'Rewrite', {
      code: cloudfront.FunctionCode.fromInline(consoleRewriteSource()),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      comment: 'tickring console: client-side routes to /index.html',
    });

    this.responseHeadersPolicy = new cloudfront.ResponseHeadersPolicy(this, 'Headers', {
      responseHeadersPolicyName: accountWideName('headers'),
      comment: 'tickring console: CSP and security headers (console/headers.js)',
      ...consoleResponseHeaders(),
    });

    this.domainNames = props.domain?.domainNames ?? [];
    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'tickring web console and its /v1 API',
      defaultRootObject: 'index.html',
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      enableLogging: true,
      logBucket: this.accessLogsBucket,
      logFilePrefix: ACCESS_LOG_PREFIXES.distribution,
      ...(props.domain
        ? {
            domainNames: [...props.domain.domainNames],
            certificate: props.domain.certificate,
            minimumProtocolVersion: cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021,
            sslSupportMethod: cloudfront.SSLMethod.SNI,
          }
        : {}),
      defaultBehavior: {
        // LIST lets S3 answer a missing object 404 (not 403), as the local gateway does.
        origin: origins.S3BucketOrigin.withOriginAccessControl(this.bucket, {
          originAccessControl: new cloudfront.S3OriginAccessControl(this, 'OriginAccess', {
            originAccessControlName: accountWideName('oac'),
            description: 'tickring console: CloudFront reads the console bucket',
          }),
          originAccessLevels: [cloudfront.AccessLevel.READ, cloudfront.AccessLevel.LIST],
        }),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        compress: true,
        responseHeadersPolicy: this.responseHeadersPolicy,
        functionAssociations: [
          { function: this.rewrite, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST },
        ],
      },
      additionalBehaviors: {
        [CONSOLE_API_PATH_PATTERN]: {
          origin: new origins.HttpOrigin(Fn.parseDomainName(props.httpApi.apiEndpoint), {
            protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
            originSslProtocols: [cloudfront.OriginSslPolicy.TLS_V1_2],
            // A `{{resolve:secretsmanager:...}}` reference, resolved by CloudFormation at deploy time.
            customHeaders: { [EDGE_SECRET_HEADER]: props.edgeSecret.secretValue.unsafeUnwrap() },
          }),
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
          cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
          // Every viewer header but Host, and CloudFront-Viewer-Address (see the class comment).
          originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          compress: true,
        },
      },
    });

    // ListBucket is only there for 404s: `/` never reaches the bucket as a listing (the rewrite makes it
    // /index.html, the default root object is index.html, no query string is forwarded), and the bucket
    // holds nothing but the public build output.
    Annotations.of(this.distribution).acknowledgeWarning(
      '@aws-cdk/aws-cloudfront-origins:listBucketSecurityRisk',
      'the rewrite function and defaultRootObject send / to index.html; the bucket holds only the public build',
    );
    if (!props.domain) {
      acknowledgeNag(
        this.distribution,
        'AwsSolutions-CFR4',
        'no domain of its own: on its *.cloudfront.net name CloudFront accepts TLSv1 whatever the ' +
          'distribution asks; with a domain (consoleDomainNames + consoleCertificateArn) it is TLSv1.2_2021',
      );
    }
    acknowledgeNag(
      this.distribution,
      'AwsSolutions-CFR1',
      "the operators of a scheduler sign in from wherever they are: no country is excluded by tickring's " +
        'design; a deployment that needs geo restriction adds it',
    );
    acknowledgeNag(
      this.distribution,
      'AwsSolutions-CFR2',
      'the console is static files and /v1, which authenticates every request and is throttled at the API ' +
        "stage; a WAF web ACL (us-east-1, billed per ACL and rule) is the operator's choice to attach",
    );

    // The deployments' handler, with the same bounds as the scheduler's functions: a role of its own and
    // a log group with a retention (aws-s3-deployment would attach AWSLambdaBasicExecutionRole).
    this.deploymentLogs = new logs.LogGroup(this, 'DeploymentLogs', {
      retention: props.logRetention ?? logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.deploymentRole = new iam.Role(this, 'DeploymentRole', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: 'tickring console deployment (aws-s3-deployment handler)',
    });
    this.deploymentLogs.grantWrite(this.deploymentRole);
    const handler = { role: this.deploymentRole, logGroup: this.deploymentLogs };

    this.assetsDeployment = new s3deploy.BucketDeployment(this, 'DeployAssets', {
      sources: [s3deploy.Source.asset(join(distDir, HASHED_DIR))],
      destinationBucket: this.bucket,
      destinationKeyPrefix: `${HASHED_DIR}/`,
      cacheControl: [s3deploy.CacheControl.fromString(ASSET_CACHE_CONTROL)],
      prune: false,
      ...handler,
    });
    this.siteDeployment = new s3deploy.BucketDeployment(this, 'DeploySite', {
      sources: [s3deploy.Source.asset(distDir, { exclude: [HASHED_DIR, `${HASHED_DIR}/**`] })],
      destinationBucket: this.bucket,
      // The sync leaves assets/ alone: neither uploaded here nor pruned.
      exclude: [`${HASHED_DIR}/*`],
      cacheControl: [s3deploy.CacheControl.fromString(INDEX_CACHE_CONTROL)],
      distribution: this.distribution,
      distributionPaths: ['/index.html'],
      ...handler,
    });
    // index.html names the new hashed files: they are in the bucket before it is.
    this.siteDeployment.node.addDependency(this.assetsDeployment);
    this.acknowledgeDeploymentHandler();
  }

  /**
   * What cdk-nag finds on aws-s3-deployment's handler is the library's making: its runtime, and the
   * wildcards of its grants (CDK's action groups on the asset bucket and the console bucket, and the
   * invalidation, which it grants on `*`). The infra tests bound what the role may do.
   */
  private acknowledgeDeploymentHandler(): void {
    const role = this.deploymentRole;
    const handlerFunction = Stack.of(this)
      .node.children.filter((child): child is lambda.Function => child instanceof lambda.Function)
      .find((fn) => fn.role === role);
    if (!handlerFunction) throw new Error('the console deployment handler was not found in the stack');
    acknowledgeNag(
      handlerFunction,
      'AwsSolutions-L1',
      "aws-s3-deployment's handler: its runtime is the library's choice and moves with aws-cdk-lib",
    );
    const read = "CDK's read action group (grantRead), on the asset bucket and the console bucket only";
    const write =
      "CDK's write action group (grantReadWrite), on the console bucket only: the sync and its prune";
    const findings: [string, string][] = [
      ['AwsSolutions-IAM5[Action::s3:GetBucket*]', read],
      ['AwsSolutions-IAM5[Action::s3:GetObject*]', read],
      ['AwsSolutions-IAM5[Action::s3:List*]', read],
      ['AwsSolutions-IAM5[Action::s3:Abort*]', write],
      ['AwsSolutions-IAM5[Action::s3:DeleteObject*]', write],
      [wildcardResourceFinding(role, this.bucket.arnForObjects('*')), "the console bucket's objects"],
      [
        wildcardResourceFinding(role, `arn:${Aws.PARTITION}:s3:::${assetBucketName(this)}/*`),
        'the bootstrap asset bucket, which the deployments read their zips from',
      ],
      [
        'AwsSolutions-IAM5[Resource::*]',
        'cloudfront:CreateInvalidation and GetInvalidation, which aws-s3-deployment grants on "*"',
      ],
    ];
    for (const [id, reason] of findings) acknowledgeNag(role, id, reason);
  }

  /** The console's URL: `https://<its first domain name>/`, or `https://<distribution domain>/`. */
  get url(): string {
    return `https://${this.domainNames[0] ?? this.distribution.distributionDomainName}/`;
  }
}

/** The stack synthesizer's file asset bucket (the bootstrap's `cdk-<qualifier>-assets-<account>-<region>`). */
function assetBucketName(scope: Construct): string {
  const synthesizer = Stack.of(scope).synthesizer;
  const qualifier =
    (synthesizer instanceof DefaultStackSynthesizer ? synthesizer.bootstrapQualifier : undefined) ??
    DefaultStackSynthesizer.DEFAULT_QUALIFIER;
  return `cdk-${qualifier}-assets-${Aws.ACCOUNT_ID}-${Aws.REGION}`;
}
