import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { App, RemovalPolicy, type Stack } from 'aws-cdk-lib';
import { PROJECT_ROOT } from '../constructs/service-function.js';
import { TickringStack, type TickringStackProps } from '../stacks/tickring-stack.js';

/** A CloudFormation template as JSON. */
export interface CfnTemplate {
  readonly Resources: Record<string, CfnResource>;
  readonly Outputs?: Record<string, { Value: unknown; Description?: string }>;
}

export interface CfnResource {
  readonly Type: string;
  readonly Properties?: Record<string, unknown>;
  readonly DeletionPolicy?: string;
  readonly UpdateReplacePolicy?: string;
}

export interface PolicyStatement {
  readonly Effect: string;
  readonly Action: string | string[];
  readonly Resource?: unknown;
  readonly Principal?: unknown;
}

/** The context of cdk.json (feature flags and defaults), so tests synthesize what `cdk synth` does. */
function cdkJsonContext(): Record<string, unknown> {
  const cdkJson = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'cdk.json'), 'utf8')) as {
    context?: Record<string, unknown>;
  };
  return cdkJson.context ?? {};
}

export interface TestAppOptions {
  readonly outdir?: string;
  /** Bundle the functions with esbuild (slow-ish); off, the stack gets placeholder code. */
  readonly bundle?: boolean;
  readonly context?: Record<string, unknown>;
  /**
   * CDK's built-in CloudFormation validation, which `cdk synth` runs (cdk.json makes its findings
   * errors). Off unless asked: tickring-stack.test.ts runs it on the default stack and on
   * {@link EVERY_OPTION}'s, and elsewhere it would only repeat that at a cost (its first run costs a
   * worker ~4.5 s of CPU, each synthesis after it ~1 s).
   */
  readonly validation?: boolean;
}

/** A fresh app with cdk.json's context, optionally without bundling. */
export function testApp(options: TestAppOptions = {}): App {
  return new App({
    outdir: options.outdir,
    builtinCloudFormationValidation: options.validation ?? false,
    context: {
      ...cdkJsonContext(),
      ...(options.bundle === false ? { 'aws:cdk:bundling-stacks': [] } : {}),
      ...options.context,
    },
  });
}

/** An app with no context for a construct tested alone (no CloudFormation validation: see testApp). */
export function bareApp(): App {
  return new App({ builtinCloudFormationValidation: false });
}

/** Every stack option that adds resources or grants. */
export const EVERY_OPTION: TickringStackProps = {
  tracing: true,
  removalPolicy: RemovalPolicy.DESTROY,
  alarmEmail: 'ops@example.com',
  lambdaExecutorArns: ['arn:aws:lambda:eu-west-1:123456789012:function:billing-jobs'],
  httpAllowList: ['https://example.com/'],
  consoleDomain: {
    domainNames: ['console.example.com'],
    certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/0a1b2c3d-0000-4000-8000-000000000000',
  },
};

export function testStack(app: App, props: TickringStackProps = {}): TickringStack {
  return new TickringStack(app, 'Tickring', props);
}

export function asArray<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** Every statement of every identity policy: AWS::IAM::Policy documents and roles' inline policies. */
export function identityStatements(template: CfnTemplate): { owner: string; statement: PolicyStatement }[] {
  const out: { owner: string; statement: PolicyStatement }[] = [];
  for (const [id, resource] of Object.entries(template.Resources)) {
    const props = resource.Properties ?? {};
    if (resource.Type === 'AWS::IAM::Policy' || resource.Type === 'AWS::IAM::ManagedPolicy') {
      const doc = props.PolicyDocument as { Statement: PolicyStatement[] };
      for (const statement of doc.Statement) out.push({ owner: id, statement });
    }
    if (resource.Type === 'AWS::IAM::Role') {
      for (const policy of asArray(
        props.Policies as { PolicyDocument: { Statement: PolicyStatement[] } }[],
      )) {
        for (const statement of policy.PolicyDocument.Statement) out.push({ owner: id, statement });
      }
    }
  }
  return out;
}

/** The logical id of a construct's CloudFormation resource. */
export function logicalId(stack: Stack, construct: { node: { defaultChild?: unknown } }): string {
  const child = construct.node.defaultChild;
  if (!child) throw new Error('construct has no default child');
  return stack.getLogicalId(child as Parameters<Stack['getLogicalId']>[0]);
}

/** Whether `value` (a CloudFormation value) references the logical id (Ref or Fn::GetAtt). */
export function references(value: unknown, id: string): boolean {
  return JSON.stringify(value ?? null).includes(`"${id}"`);
}

/**
 * The web console's deployment handler: the Lambda behind the Custom::CDKBucketDeployment resources
 * (aws-s3-deployment's own singleton, not one of tickring's functions) and its role.
 */
export function consoleDeploymentHandler(template: CfnTemplate): { functionId: string; roleId: string } {
  const tokens = new Set(
    Object.values(template.Resources)
      .filter((r) => r.Type === 'Custom::CDKBucketDeployment')
      .map((r) => JSON.stringify(r.Properties?.ServiceToken)),
  );
  if (tokens.size !== 1) throw new Error(`expected one BucketDeployment handler, found ${tokens.size}`);
  const [token] = [...tokens];
  const functionId = (JSON.parse(token!) as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
  const role = template.Resources[functionId]?.Properties?.Role as { 'Fn::GetAtt': [string, string] };
  return { functionId, roleId: role['Fn::GetAtt'][0] };
}

/** Whether an identity statement's owner (a role, or a policy attached to roles) is or names the role. */
export function ownedByRole(template: CfnTemplate, owner: string, roleId: string): boolean {
  return owner === roleId || references(template.Resources[owner]?.Properties?.Roles, roleId);
}
