import { Stack, Validations } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TickringStackProps } from '../stacks/tickring-stack.js';
import { bareApp, EVERY_OPTION, testApp, testStack } from './support.js';

// cdk-nag's AwsSolutions pack on the synthesized stack: every error and warning is either fixed in the
// stack or acknowledged where it arises, with its reason (infra/constructs/nag-acknowledgments.ts).
// cdk-nag 3 reports through CDK's policy validation rather than annotations; `validateScope` is its
// entry point for tests.

// Synthesis without bundling is quick, but a loaded machine makes it slow.
vi.setConfig({ testTimeout: 60_000 });

const CONFIGURATIONS: [string, TickringStackProps][] = [
  ['the defaults', {}],
  ['every option that adds resources or grants', EVERY_OPTION],
];

interface Finding {
  readonly rule: string;
  readonly severity: string;
  readonly path: string;
}

function findings(scope: IConstruct): Finding[] {
  const report = new AwsSolutionsChecks().validateScope(scope);
  return report.violations.flatMap((violation) =>
    violation.violatingResources.map((resource) => ({
      rule: violation.ruleName,
      severity: violation.severity ?? '',
      path: resource.constructPath ?? resource.resourceLogicalId ?? '?',
    })),
  );
}

interface Acknowledgment {
  readonly rule: string;
  readonly reason: string;
  readonly path: string;
}

/** The AwsSolutions rules acknowledged in the construct tree, where, and why. */
function acknowledgments(scope: IConstruct): Acknowledgment[] {
  return scope.node.findAll().flatMap((construct) =>
    construct.node.metadata
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) => Object.entries(entry.data as Record<string, string>))
      .map(([id, reason]) => ({ rule: id.replace(/^annotation::/i, ''), reason, path: construct.node.path }))
      .filter((ack) => ack.rule.startsWith('AwsSolutions-')),
  );
}

const stackOf = (props: TickringStackProps) => testStack(testApp({ bundle: false }), props);

afterEach(() => {
  vi.restoreAllMocks();
});

describe('cdk-nag AwsSolutions checks', () => {
  it.each(CONFIGURATIONS)('leaves no error or warning unacknowledged on the stack with %s', (_, props) => {
    expect(findings(stackOf(props))).toEqual([]);
  });

  it.each(CONFIGURATIONS)(
    'acknowledges only findings the pack makes, each with a reason, on the stack with %s',
    (_, props) => {
      const acknowledged = acknowledgments(stackOf(props));
      expect(acknowledged.length).toBeGreaterThan(0);
      // The same stack with every acknowledgment dropped: what the pack finds before they apply.
      vi.spyOn(Validations.prototype, 'acknowledge').mockImplementation(() => undefined);
      const raw = findings(stackOf(props));
      for (const ack of acknowledged) {
        expect(ack.reason.trim().length, `${ack.rule} at ${ack.path}`).toBeGreaterThan(20);
        const found = raw.some(
          (f) => f.rule === ack.rule && (f.path === ack.path || f.path.startsWith(`${ack.path}/`)),
        );
        expect(found, `${ack.rule} acknowledged at ${ack.path}, but not found there`).toBe(true);
      }
    },
  );

  it('fixes rather than acknowledges the access logs, the managed policy and, with a domain, the TLS version', () => {
    const [, withDomain] = CONFIGURATIONS[1]!;
    const fixed = ['AwsSolutions-APIG1', 'AwsSolutions-S1', 'AwsSolutions-CFR3', 'AwsSolutions-IAM4'];
    for (const props of [{}, withDomain]) {
      const rules = acknowledgments(stackOf(props)).map((ack) => ack.rule.replace(/\[.*$/, ''));
      for (const rule of fixed) expect(rules).not.toContain(rule);
    }
    const withoutDomain = acknowledgments(stackOf({})).map((ack) => ack.rule);
    expect(withoutDomain).toContain('AwsSolutions-CFR4');
    expect(acknowledgments(stackOf(withDomain)).map((ack) => ack.rule)).not.toContain('AwsSolutions-CFR4');
  });

  it('is live: it reports a bucket without access logs, and an acknowledgment there silences it', () => {
    const stack = new Stack(bareApp(), 'Bare');
    const bucket = new s3.Bucket(stack, 'Bucket', { enforceSSL: true });
    expect(findings(stack)).toContainEqual({
      rule: 'AwsSolutions-S1',
      severity: 'error',
      path: 'Bare/Bucket/Resource',
    });
    Validations.of(bucket).acknowledge({ id: 'AwsSolutions-S1', reason: 'a test bucket' });
    expect(findings(stack).map((f) => f.rule)).not.toContain('AwsSolutions-S1');
  });
});
