import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { EDGE_SECRET_HEADER } from '@tickring/api/http';
import { HTTP_ROUTES } from '@tickring/aws/topology';
import { CONSOLE_DIST_DIR } from '@tickring/console/dist-dir';
import { ASSET_CACHE_CONTROL, CONSOLE_HEADERS, INDEX_CACHE_CONTROL } from '@tickring/console/headers';
import { Annotations, Aws, Duration, Fn, Names, RemovalPolicy } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';

/** The behaviour that sends the console's API calls to the HTTP API, on the console's own origin. */
export const CONSOLE_API_PATH_PATTERN = '/v1/*';

/** Vite's content-hashed output directory (under the dist directory and in the bucket). */
const HASHED_DIR = 'assets';

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
 * `/index.html` (every client-side route is fetched as that object).
 */
export class WebConsole extends Construct {
  readonly bucket: s3.Bucket;
  readonly distribution: cloudfront.Distribution;
  readonly rewrite: cloudfront.Function;
  readonly responseHeadersPolicy: cloudfront.ResponseHeadersPolicy;
  readonly assetsDeployment: s3deploy.BucketDeployment;
  readonly siteDeployment: s3deploy.BucketDeployment;

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

    this.bucket = new s3.Bucket(this, 'Bucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
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

    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'tickring web console and its /v1 API',
      defaultRootObject: 'index.html',
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
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

    this.assetsDeployment = new s3deploy.BucketDeployment(this, 'DeployAssets', {
      sources: [s3deploy.Source.asset(join(distDir, HASHED_DIR))],
      destinationBucket: this.bucket,
      destinationKeyPrefix: `${HASHED_DIR}/`,
      cacheControl: [s3deploy.CacheControl.fromString(ASSET_CACHE_CONTROL)],
      prune: false,
    });
    this.siteDeployment = new s3deploy.BucketDeployment(this, 'DeploySite', {
      sources: [s3deploy.Source.asset(distDir, { exclude: [HASHED_DIR, `${HASHED_DIR}/**`] })],
      destinationBucket: this.bucket,
      // The sync leaves assets/ alone: neither uploaded here nor pruned.
      exclude: [`${HASHED_DIR}/*`],
      cacheControl: [s3deploy.CacheControl.fromString(INDEX_CACHE_CONTROL)],
      distribution: this.distribution,
      distributionPaths: ['/index.html'],
    });
    // index.html names the new hashed files: they are in the bucket before it is.
    this.siteDeployment.node.addDependency(this.assetsDeployment);
  }

  /** The console's URL, `https://<distribution domain>/`. */
  get url(): string {
    return `https://${this.distribution.distributionDomainName}/`;
  }
}
