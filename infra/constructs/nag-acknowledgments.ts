import { Stack, Validations } from 'aws-cdk-lib';
import type * as iam from 'aws-cdk-lib/aws-iam';
import type { IConstruct } from 'constructs';

/**
 * Acknowledging cdk-nag's AwsSolutions findings (infra/test/nag.test.ts runs the pack): CDK's own
 * `Validations.of(scope).acknowledge`, which cdk-nag 3 reads from the construct and its ancestors. Each
 * call names one rule or one finding (`AwsSolutions-IAM5[Resource::...]`) and says why it stands.
 */
export function acknowledgeNag(scope: IConstruct, id: string, reason: string): void {
  Validations.of(scope).acknowledge({ id, reason });
}

/**
 * A CloudFormation value as cdk-nag writes it in a finding: references flattened to `<Logical.Attr>` /
 * `<Ref>`, `${...}` of Fn::Sub to `<...>`, Fn::Join joined (cdk-nag's flattenCfnReference).
 */
export function flattenForNag(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value.replace(/\$\{/g, '<').replace(/\}/g, '>');
  const node = value as Record<string, unknown>;
  if (Array.isArray(node['Fn::Join'])) {
    const [delimiter, items] = node['Fn::Join'] as [string, unknown[]];
    return items.map(flattenForNag).join(delimiter);
  }
  if (node['Fn::Sub'] !== undefined) return flattenForNag(node['Fn::Sub']);
  if (Array.isArray(node['Fn::GetAtt'])) {
    const [resource, attribute] = node['Fn::GetAtt'] as [unknown, unknown];
    return `<${flattenForNag(resource)}.${flattenForNag(attribute)}>`;
  }
  if (node['Fn::ImportValue'] !== undefined) return flattenForNag(node['Fn::ImportValue']);
  if (node.Ref !== undefined) return `<${flattenForNag(node.Ref)}>`;
  return JSON.stringify(value);
}

/** The id of the IAM5 (wildcard permission) finding on a resource ARN, which may hold tokens. */
export function wildcardResourceFinding(scope: IConstruct, resource: string): string {
  return `AwsSolutions-IAM5[Resource::${flattenForNag(Stack.of(scope).resolve(resource))}]`;
}

/**
 * Acknowledges, on `scope` (the grantee's role), the IAM5 finding of every wildcard resource of a grant's
 * identity statements, for the one reason given. Wildcard actions are left to the check.
 */
export function acknowledgeGrantWildcards(scope: IConstruct, grant: iam.Grant, reason: string): void {
  const wildcards = grant.principalStatements
    .flatMap((statement) => statement.resources)
    .filter((resource) => flattenForNag(Stack.of(scope).resolve(resource)).includes('*'));
  for (const id of new Set(wildcards.map((resource) => wildcardResourceFinding(scope, resource)))) {
    acknowledgeNag(scope, id, reason);
  }
}
