import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runInNewContext } from 'node:vm';
import { EDGE_SECRET_HEADER, VIEWER_ADDRESS_HEADER } from '@tickring/api/http';
import { CONSOLE_DIST_DIR } from '@tickring/console/dist-dir';
import {
  ASSET_CACHE_CONTROL,
  CONSOLE_HEADERS,
  CONTENT_SECURITY_POLICY,
  INDEX_CACHE_CONTROL,
} from '@tickring/console/headers';
import { RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ACCESS_LOG_PREFIXES,
  API_PATH_PREFIXES,
  CONSOLE_API_PATH_PATTERN,
  consoleResponseHeaders,
  consoleRewriteSource,
  WebConsole,
} from '../constructs/web-console.js';
import type { TickringStack } from '../stacks/tickring-stack.js';
import {
  type CfnResource,
  type CfnTemplate,
  consoleDeploymentHandler,
  logicalId,
  references,
  testApp,
  testStack,
} from './support.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

// biome-ignore lint/suspicious/noExplicitAny: CloudFormation JSON, navigated freely by the assertions
type Json = any;

/** CloudFront's managed policies, by the ids CloudFormation gets. */
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const CACHING_OPTIMIZED = '658327ea-f89d-4fab-a63d-7e88639e58f6';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

/** The built console: these tests deploy the real `npm run build` output (pretest builds it). */
function requireBuiltConsole(): void {
  if (!existsSync(path.join(CONSOLE_DIST_DIR, 'index.html'))) {
    throw new Error(
      `${path.join(CONSOLE_DIST_DIR, 'index.html')} is missing: the web console is not built. ` +
        'Run `npm run build` (or `npm run build -w console`) before the infra tests; `npm test` does (pretest).',
    );
  }
}

/** Every file under `dir`, as `/`-separated paths relative to it. */
function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? filesUnder(path.join(dir, entry.name), `${prefix}${entry.name}/`)
      : [`${prefix}${entry.name}`],
  );
}

describe('the web console in the stack (S3 + CloudFront)', () => {
  let outdir: string;
  let stack: TickringStack;
  let json: CfnTemplate;
  let template: Template;
  let assetDirs: Record<string, string>;

  beforeAll(() => {
    requireBuiltConsole();
    outdir = mkdtempSync(path.join(tmpdir(), 'tickring-console-cdk-'));
    const app = testApp({ outdir, bundle: false });
    stack = testStack(app);
    const assembly = app.synth();
    json = assembly.getStackArtifact(stack.artifactId).template as CfnTemplate;
    template = Template.fromJSON(json);
    const manifest = JSON.parse(
      readFileSync(path.join(outdir, `${stack.artifactId}.assets.json`), 'utf8'),
    ) as { files: Record<string, { source: { path: string } }> };
    assetDirs = Object.fromEntries(
      Object.entries(manifest.files).map(([hash, file]) => [hash, path.join(outdir, file.source.path)]),
    );
  });

  afterAll(() => {
    if (outdir) rmSync(outdir, { recursive: true, force: true });
  });

  const resourcesOf = (type: string): [string, CfnResource][] =>
    Object.entries(json.Resources).filter(([, r]) => r.Type === type);
  const props = (resource: CfnResource): Record<string, Json> => resource.Properties ?? {};
  const distribution = (): Json => {
    const [[, d] = []] = resourcesOf('AWS::CloudFront::Distribution');
    return props(d as CfnResource).DistributionConfig;
  };
  const bucketId = () => logicalId(stack, stack.webConsole.bucket);
  const distributionId = () => logicalId(stack, stack.webConsole.distribution);
  const deployments = () =>
    resourcesOf('Custom::CDKBucketDeployment').filter(([, d]) =>
      references(props(d).DestinationBucketName, bucketId()),
    );

  it('keeps the files in a private bucket: public access blocked, TLS only, S3-managed encryption, retained', () => {
    expect(resourcesOf('AWS::CloudFront::Distribution')).toHaveLength(1);
    const bucket = json.Resources[bucketId()]!;
    expect(props(bucket).PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(props(bucket).BucketEncryption).toEqual({
      ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
    });
    expect(props(bucket).WebsiteConfiguration).toBeUndefined();
    // As the stack's other data: retained by default.
    expect(bucket.DeletionPolicy).toBe('Retain');
    expect(bucket.UpdateReplacePolicy).toBe('Retain');
  });

  it('lets only this distribution read the bucket (Origin Access Control), and nobody without TLS', () => {
    const [[, policy] = []] = resourcesOf('AWS::S3::BucketPolicy').filter(([, p]) =>
      references(props(p).Bucket, bucketId()),
    );
    const statements = props(policy as CfnResource).PolicyDocument.Statement as Json[];
    const allows = statements.filter((s) => s.Effect === 'Allow');
    expect(allows).toHaveLength(1);
    expect(allows[0].Principal).toEqual({ Service: 'cloudfront.amazonaws.com' });
    expect([...allows[0].Action].sort()).toEqual(['s3:GetObject', 's3:ListBucket']);
    expect(references(allows[0].Condition.StringEquals['AWS:SourceArn'], distributionId())).toBe(true);
    const deny = statements.find((s) => s.Effect === 'Deny');
    expect(deny).toMatchObject({ Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } });

    const s3Origin = distribution().Origins.find((o: Json) => o.S3OriginConfig);
    expect(references(s3Origin.DomainName, bucketId())).toBe(true);
    expect(s3Origin.S3OriginConfig).toEqual({ OriginAccessIdentity: '' });
    const [[oacId, oac] = []] = resourcesOf('AWS::CloudFront::OriginAccessControl');
    expect(props(oac as CfnResource).OriginAccessControlConfig).toMatchObject({
      OriginAccessControlOriginType: 's3',
      SigningBehavior: 'always',
      SigningProtocol: 'sigv4',
    });
    expect(s3Origin.OriginAccessControlId).toEqual({ 'Fn::GetAtt': [oacId, 'Id'] });
    expect(resourcesOf('AWS::CloudFront::CloudFrontOriginAccessIdentity')).toEqual([]);
  });

  it('serves the console from the bucket: HTTPS (HTTP redirected), cached, with the rewrite function and the headers policy', () => {
    const config = distribution();
    const behavior = config.DefaultCacheBehavior;
    const s3Origin = config.Origins.find((o: Json) => o.S3OriginConfig);
    expect(behavior.TargetOriginId).toBe(s3Origin.Id);
    expect(behavior.ViewerProtocolPolicy).toBe('redirect-to-https');
    expect(behavior.AllowedMethods).toEqual(['GET', 'HEAD']);
    expect(behavior.CachePolicyId).toBe(CACHING_OPTIMIZED);
    const [[functionId] = []] = resourcesOf('AWS::CloudFront::Function');
    expect(behavior.FunctionAssociations).toEqual([
      { EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [functionId, 'FunctionARN'] } },
    ]);
    const [[policyId] = []] = resourcesOf('AWS::CloudFront::ResponseHeadersPolicy');
    expect(behavior.ResponseHeadersPolicyId).toEqual({ Ref: policyId });
    expect(config.DefaultRootObject).toBe('index.html');
    // Client-side routes are the function's job: no distribution-wide error pages, which would turn
    // the API's own 403 and 404 answers into index.html.
    expect(config.CustomErrorResponses).toBeUndefined();
  });

  it('sends /v1/* to the stack’s HTTP API over HTTPS, never cached, every method, Authorization included', () => {
    const config = distribution();
    expect(config.CacheBehaviors).toHaveLength(1);
    const api = config.CacheBehaviors[0];
    expect(api.PathPattern).toBe(CONSOLE_API_PATH_PATTERN);
    expect(api.PathPattern).toBe('/v1/*');
    expect(api.ViewerProtocolPolicy).toBe('redirect-to-https');
    expect([...api.AllowedMethods].sort()).toEqual(
      ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'].sort(),
    );
    // CachingDisabled + AllViewerExceptHostHeader: nothing is cached, and every viewer header but Host
    // (Authorization among them) reaches API Gateway, which needs its own Host.
    expect(api.CachePolicyId).toBe(CACHING_DISABLED);
    expect(api.OriginRequestPolicyId).toBe(ALL_VIEWER_EXCEPT_HOST_HEADER);
    expect(api.FunctionAssociations).toBeUndefined();
    expect(api.ResponseHeadersPolicyId).toBeUndefined();
    const origin = config.Origins.find((o: Json) => o.Id === api.TargetOriginId);
    expect(origin.CustomOriginConfig).toMatchObject({
      OriginProtocolPolicy: 'https-only',
      OriginSSLProtocols: ['TLSv1.2'],
    });
    const apiId = logicalId(stack, stack.httpApi.api);
    expect(JSON.stringify(origin.DomainName)).toContain(`["${apiId}","ApiEndpoint"]`);
    expect(origin.OriginPath).toBeUndefined();
  });

  it('sends the edge secret to the API as an origin header: a dynamic reference to the generated secret, never its value', () => {
    const config = distribution();
    const api = config.CacheBehaviors[0];
    const origin = config.Origins.find((o: Json) => o.Id === api.TargetOriginId);
    const edgeId = logicalId(stack, stack.secrets.edgeSecret);
    expect(EDGE_SECRET_HEADER).toBe('x-tickring-edge-secret');
    expect(origin.OriginCustomHeaders).toEqual([
      {
        HeaderName: EDGE_SECRET_HEADER,
        HeaderValue: {
          'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: edgeId }, ':SecretString:::}}']],
        },
      },
    ]);
    // CloudFormation resolves it at deploy time; the template holds a reference, the secret no value.
    const secret = props(json.Resources[edgeId]!);
    expect(json.Resources[edgeId]?.Type).toBe('AWS::SecretsManager::Secret');
    expect(secret.SecretString).toBeUndefined();
    expect(secret.GenerateSecretString).toMatchObject({ PasswordLength: 64, ExcludePunctuation: true });
    expect(JSON.stringify(origin.OriginCustomHeaders)).not.toMatch(/"HeaderValue":"/);
    // The S3 origin (the console's files) gets no such header, and nothing else mentions the secret
    // but the api's role and environment.
    const s3Origin = config.Origins.find((o: Json) => o.S3OriginConfig);
    expect(s3Origin.OriginCustomHeaders).toBeUndefined();
    const mentions = Object.entries(json.Resources)
      .filter(([id, r]) => id !== edgeId && references(r, edgeId))
      .map(([id, r]) => `${r.Type} ${id}`)
      .sort();
    expect(mentions).toEqual(
      [
        `AWS::CloudFront::Distribution ${distributionId()}`,
        `AWS::IAM::Policy ${logicalId(stack, stack.functions.api.role.node.findChild('DefaultPolicy'))}`,
        `AWS::Lambda::Function ${logicalId(stack, stack.functions.api.function)}`,
      ].sort(),
    );
  });

  it('forwards Authorization and CloudFront-Viewer-Address, not Host, with the managed AllViewerExceptHostHeader policy', () => {
    // "Use managed origin request policies", AllViewerExceptHostHeader: every viewer header but Host,
    // and "all device type and viewer location headers"; "Add CloudFront request headers" lists
    // CloudFront-Viewer-Address among the viewer location headers. The policy is the managed one:
    expect(distribution().CacheBehaviors[0].OriginRequestPolicyId).toBe(ALL_VIEWER_EXCEPT_HOST_HEADER);
    expect(resourcesOf('AWS::CloudFront::OriginRequestPolicy')).toEqual([]);
    expect(VIEWER_ADDRESS_HEADER).toBe('CloudFront-Viewer-Address'.toLowerCase());
    // ... because no custom policy can say the same: an allow list may not name Authorization, and
    // "all viewer headers and these CloudFront headers" forwards Host, which API Gateway refuses.
    expect(() =>
      cloudfront.OriginRequestHeaderBehavior.allowList('Authorization', 'CloudFront-Viewer-Address'),
    ).toThrow(/Authorization/);
    expect(cloudfront.OriginRequestHeaderBehavior.all('CloudFront-Viewer-Address').behavior).toBe(
      'allViewerAndWhitelistCloudFront',
    );
    // "All viewer headers except" lists only what is left out (no CloudFront header can be added).
    expect(cloudfront.OriginRequestHeaderBehavior.denyList('Host')).toEqual({
      behavior: 'allExcept',
      headers: ['Host'],
    });
  });

  it('rewrites client-side routes with a cloudfront-js-2.0 function, the code of consoleRewriteSource', () => {
    const [[, fn] = []] = resourcesOf('AWS::CloudFront::Function');
    expect(props(fn as CfnResource).FunctionConfig.Runtime).toBe('cloudfront-js-2.0');
    expect(props(fn as CfnResource).AutoPublish).toBe(true);
    expect(props(fn as CfnResource).FunctionCode).toBe(consoleRewriteSource());
  });

  it('sends the CSP of console/headers.js and every other console header from the response headers policy', () => {
    const [[, policy] = []] = resourcesOf('AWS::CloudFront::ResponseHeadersPolicy');
    const config = props(policy as CfnResource).ResponseHeadersPolicyConfig;
    expect(config.SecurityHeadersConfig.ContentSecurityPolicy).toEqual({
      ContentSecurityPolicy: CONTENT_SECURITY_POLICY,
      Override: true,
    });
    expect(config.SecurityHeadersConfig).toMatchObject({
      ContentTypeOptions: { Override: true },
      FrameOptions: { FrameOption: 'DENY', Override: true },
      ReferrerPolicy: { ReferrerPolicy: 'no-referrer', Override: true },
      StrictTransportSecurity: { AccessControlMaxAgeSec: 31536000, IncludeSubdomains: true, Override: true },
    });
    expect(CONSOLE_HEADERS['x-content-type-options']).toBe('nosniff');
    expect(CONSOLE_HEADERS['x-frame-options']).toBe('DENY');
    expect(CONSOLE_HEADERS['referrer-policy']).toBe('no-referrer');
    expect(CONSOLE_HEADERS['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    // Named per account and region (policy names are account-wide).
    expect(JSON.stringify(config.Name)).toContain('AWS::Region');
  });

  it('deploys the built console: the hashed assets immutable and unpruned, then the rest no-cache, pruned, invalidating /index.html', () => {
    const all = deployments();
    expect(all).toHaveLength(2);
    const [[assetsId, assets] = [], [siteId, site] = []] = [
      all.find(([, d]) => props(d).DestinationBucketKeyPrefix === 'assets/')!,
      all.find(([, d]) => props(d).DestinationBucketKeyPrefix === undefined)!,
    ];
    expect(props(assets as CfnResource)).toMatchObject({
      Prune: false,
      SystemMetadata: { 'cache-control': ASSET_CACHE_CONTROL },
    });
    expect(props(assets as CfnResource).DistributionId).toBeUndefined();
    expect(props(site as CfnResource)).toMatchObject({
      Prune: true,
      Exclude: ['assets/*'],
      SystemMetadata: { 'cache-control': INDEX_CACHE_CONTROL },
      DistributionId: { Ref: distributionId() },
      DistributionPaths: ['/index.html'],
    });
    // index.html comes after the files it names.
    expect((site as CfnResource & { DependsOn?: string[] }).DependsOn).toContain(assetsId);
    expect(siteId).toBeDefined();

    // What each deployment uploads is the build output, all of it, split between the two.
    const contents = (resource: CfnResource) => {
      const [key] = props(resource).SourceObjectKeys as string[];
      const dir = assetDirs[String(key).replace(/\.zip$/, '')];
      if (!dir) throw new Error(`no staged asset for ${key}`);
      return dir;
    };
    const siteDir = contents(site as CfnResource);
    const assetsDir = contents(assets as CfnResource);
    expect(readFileSync(path.join(siteDir, 'index.html'), 'utf8')).toBe(
      readFileSync(path.join(CONSOLE_DIST_DIR, 'index.html'), 'utf8'),
    );
    const built = filesUnder(CONSOLE_DIST_DIR).sort();
    const deployed = [...filesUnder(siteDir), ...filesUnder(assetsDir).map((f) => `assets/${f}`)].sort();
    expect(deployed).toEqual(built);
    expect(built).toContain('favicon.svg');
    expect(built.some((f) => f.startsWith('assets/'))).toBe(true);
  });

  it('outputs ConsoleUrl, https://<distribution domain>/, beside ApiUrl', () => {
    template.hasOutput('ConsoleUrl', {
      Value: { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId(), 'DomainName'] }, '/']] },
    });
    template.hasOutput('ApiUrl', {});
    expect(json.Outputs?.ConsoleDistributionDomainName).toBeUndefined();
  });

  it("logs the bucket's and the distribution's requests to a private access logs bucket that expires them", () => {
    const logsId = logicalId(stack, stack.webConsole.accessLogsBucket);
    expect(props(json.Resources[bucketId()]!).LoggingConfiguration).toEqual({
      DestinationBucketName: { Ref: logsId },
      LogFilePrefix: ACCESS_LOG_PREFIXES.bucket,
    });
    expect(distribution().Logging).toEqual({
      Bucket: { 'Fn::GetAtt': [logsId, 'RegionalDomainName'] },
      Prefix: ACCESS_LOG_PREFIXES.distribution,
    });
    const logs = json.Resources[logsId]!;
    expect(props(logs)).toMatchObject({
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      },
      // CloudFront's standard logs need ACLs; the bucket owner still owns the objects.
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerPreferred' }] },
      LifecycleConfiguration: { Rules: [{ ExpirationInDays: 90, Status: 'Enabled' }] },
    });
    expect(logs.DeletionPolicy).toBe('Retain');
    // S3 delivers the bucket's logs under its prefix only, for this bucket only; nobody without TLS.
    const [[, policy] = []] = resourcesOf('AWS::S3::BucketPolicy').filter(([, p]) =>
      references(props(p).Bucket, logsId),
    );
    const statements = props(policy as CfnResource).PolicyDocument.Statement as Json[];
    const allows = statements.filter((s) => s.Effect === 'Allow');
    expect(allows).toHaveLength(1);
    expect(allows[0]).toMatchObject({
      Principal: { Service: 'logging.s3.amazonaws.com' },
      Action: 's3:PutObject',
      Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [logsId, 'Arn'] }, `/${ACCESS_LOG_PREFIXES.bucket}*`]] },
    });
    expect(references(allows[0].Condition.ArnLike['aws:SourceArn'], bucketId())).toBe(true);
    expect(statements.find((s) => s.Effect === 'Deny')).toMatchObject({
      Condition: { Bool: { 'aws:SecureTransport': 'false' } },
    });
  });

  it("serves on the distribution's own name with CloudFront's default certificate when no domain is given", () => {
    const config = distribution();
    expect(config.Aliases).toBeUndefined();
    expect(config.ViewerCertificate).toBeUndefined();
  });

  it("runs the deployments' handler with a role of its own, no managed policy, logging to a log group with a retention", () => {
    const { functionId, roleId } = consoleDeploymentHandler(json);
    expect(roleId).toBe(logicalId(stack, stack.webConsole.deploymentRole));
    expect(props(json.Resources[roleId]!).ManagedPolicyArns).toBeUndefined();
    const logGroupId = logicalId(stack, stack.webConsole.deploymentLogs);
    expect(props(json.Resources[functionId]!).LoggingConfig).toEqual({ LogGroup: { Ref: logGroupId } });
    expect(props(json.Resources[logGroupId]!).RetentionInDays).toBe(30);
  });
});

describe('the web console on a domain of its own', () => {
  const certificateArn =
    'arn:aws:acm:us-east-1:123456789012:certificate/0a1b2c3d-0000-4000-8000-000000000000';
  let stack: TickringStack;
  let json: CfnTemplate;

  beforeAll(() => {
    requireBuiltConsole();
    stack = testStack(testApp({ bundle: false }), {
      consoleDomain: { domainNames: ['console.example.com', 'jobs.example.com'], certificateArn },
    });
    json = Template.fromStack(stack).toJSON() as CfnTemplate;
  });

  it('answers on its names with the certificate, TLS 1.2 (TLSv1.2_2021) at least, over SNI', () => {
    const distributions = Object.values(json.Resources).filter(
      (r) => r.Type === 'AWS::CloudFront::Distribution',
    );
    expect(distributions).toHaveLength(1);
    const config = (distributions[0]!.Properties as Json).DistributionConfig;
    expect(config.Aliases).toEqual(['console.example.com', 'jobs.example.com']);
    expect(config.ViewerCertificate).toEqual({
      AcmCertificateArn: certificateArn,
      MinimumProtocolVersion: 'TLSv1.2_2021',
      SslSupportMethod: 'sni-only',
    });
  });

  it('outputs its first name as ConsoleUrl, and the distribution domain the names point at', () => {
    expect(json.Outputs?.ConsoleUrl?.Value).toBe('https://console.example.com/');
    expect(json.Outputs?.ConsoleDistributionDomainName?.Value).toEqual({
      'Fn::GetAtt': [logicalId(stack, stack.webConsole.distribution), 'DomainName'],
    });
  });
});

describe('the rewrite function', () => {
  type Request = { uri: string; querystring?: Record<string, unknown> };
  const handler = runInNewContext(`${consoleRewriteSource()}\nhandler;`) as (event: {
    request: Request;
  }) => Request | { statusCode: number };
  const run = (uri: string) => handler({ request: { uri, querystring: { status: { value: 'fail' } } } });

  it.each(['/', '/jobs', '/jobs/7', '/jobs/7/edit', '/runs', '/settings/', '/assets'])(
    'fetches the client-side route %s as /index.html, keeping the query string',
    (uri) => {
      expect(run(uri)).toEqual({ uri: '/index.html', querystring: { status: { value: 'fail' } } });
    },
  );

  it.each(['/index.html', '/favicon.svg', '/assets/index-Ab12.js', '/assets/missing.css', '/robots.txt'])(
    'fetches the file %s as it is (a missing one stays 404)',
    (uri) => {
      expect(run(uri)).toMatchObject({ uri });
    },
  );

  it.each(['/v1', '/api', '/api/registry', '/xxl-job-admin/api/callback'])(
    'answers the API path %s 404 instead of the console (only /v1/* reaches the API here)',
    (uri) => {
      expect(run(uri)).toEqual({ statusCode: 404, statusDescription: 'Not Found' });
    },
  );

  it('knows the API prefixes from the route table', () => {
    expect(API_PATH_PREFIXES).toEqual(['/v1/', '/api/', '/xxl-job-admin/api/']);
  });
});

describe('response headers from CONSOLE_HEADERS', () => {
  it('maps every console header: the security ones typed, any other as a custom header', () => {
    const mapped = consoleResponseHeaders({ ...CONSOLE_HEADERS, 'permissions-policy': 'camera=()' });
    expect(mapped.securityHeadersBehavior.contentSecurityPolicy?.contentSecurityPolicy).toBe(
      CONTENT_SECURITY_POLICY,
    );
    expect(mapped.securityHeadersBehavior.frameOptions?.frameOption).toBe(cloudfront.HeadersFrameOption.DENY);
    expect(mapped.securityHeadersBehavior.referrerPolicy?.referrerPolicy).toBe(
      cloudfront.HeadersReferrerPolicy.NO_REFERRER,
    );
    expect(mapped.securityHeadersBehavior.strictTransportSecurity).toMatchObject({
      includeSubdomains: true,
      preload: false,
    });
    expect(mapped.securityHeadersBehavior.strictTransportSecurity?.accessControlMaxAge.toSeconds()).toBe(
      31536000,
    );
    expect(mapped.customHeadersBehavior).toEqual({
      customHeaders: [{ header: 'permissions-policy', value: 'camera=()', override: true }],
    });
    expect(consoleResponseHeaders().customHeadersBehavior).toBeUndefined();
  });

  it.each([
    ['x-frame-options', 'ALLOW-FROM https://example.com'],
    ['referrer-policy', 'no-referrer, strict-origin'],
    ['strict-transport-security', 'max-age=60; bogus'],
    ['x-content-type-options', 'sniff'],
  ])('fails synthesis on %s: %s, which CloudFront cannot send', (name, value) => {
    expect(() => consoleResponseHeaders({ ...CONSOLE_HEADERS, [name]: value })).toThrow(name);
  });
});

describe('WebConsole on its own', () => {
  function consoleStack(distDir: string, removalPolicy?: RemovalPolicy) {
    const stack = new Stack(testApp(), 'ConsoleOnly');
    const httpApi = new apigw.HttpApi(stack, 'Api');
    const edgeSecret = new secretsmanager.Secret(stack, 'EdgeSecret');
    const webConsole = new WebConsole(stack, 'Console', { httpApi, edgeSecret, distDir, removalPolicy });
    return { stack, webConsole };
  }

  function fakeDist(): string {
    const dir = mkdtempSync(path.join(tmpdir(), 'tickring-console-dist-'));
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html>');
    writeFileSync(path.join(dir, 'assets', 'index-Ab12.js'), '');
    return dir;
  }

  it('refuses to synthesize without a built console, saying to run npm run build', () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'tickring-console-unbuilt-'));
    try {
      expect(() => consoleStack(empty)).toThrow(/not built: .*index\.html is missing\. Run `npm run build`/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('lets a destroyed stack take the buckets and their files (removal policy DESTROY)', () => {
    const dist = fakeDist();
    try {
      const { stack, webConsole } = consoleStack(dist, RemovalPolicy.DESTROY);
      const template = Template.fromStack(stack);
      const resources = template.toJSON().Resources;
      for (const bucket of [webConsole.bucket, webConsole.accessLogsBucket]) {
        expect(resources[logicalId(stack, bucket)].DeletionPolicy).toBe('Delete');
      }
      // The console bucket's and the access logs bucket's.
      template.resourceCountIs('Custom::S3AutoDeleteObjects', 2);
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
  });

  it('retains the buckets and their files by default', () => {
    const dist = fakeDist();
    try {
      const { stack, webConsole } = consoleStack(dist);
      const template = Template.fromStack(stack);
      const resources = template.toJSON().Resources;
      for (const bucket of [webConsole.bucket, webConsole.accessLogsBucket]) {
        expect(resources[logicalId(stack, bucket)].DeletionPolicy).toBe('Retain');
      }
      template.resourceCountIs('Custom::S3AutoDeleteObjects', 0);
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
  });
});
