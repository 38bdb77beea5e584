import { ConfigError, ENV } from '@tickring/core/config';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

const base = { [ENV.adminAddresses]: 'http://a:8080, http://b/xxl-job-admin/', [ENV.accessToken]: 'tok' };

describe('loadConfig', () => {
  it('reads admin addresses, the token and the allow-list, with defaults', () => {
    expect(
      loadConfig({ ...base, [ENV.httpAllowList]: 'https://x.example.com/, http://127.0.0.1:9/' }),
    ).toEqual({
      adminAddresses: ['http://a:8080', 'http://b/xxl-job-admin/'],
      accessToken: { value: 'tok' },
      httpAllowList: ['https://x.example.com/', 'http://127.0.0.1:9/'],
      reportMarginMs: 3_000,
      abortGraceMs: 1_000,
    });
  });

  it('takes the token as a secret ARN when no value is given', () => {
    const arn = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:tickring-token';
    const config = loadConfig({ [ENV.adminAddresses]: 'http://a', [ENV.accessTokenSecretArn]: arn });
    expect(config.accessToken).toEqual({ secretArn: arn });
    expect(config.httpAllowList).toEqual([]);
  });

  it('names the missing or invalid variable', () => {
    expect(() => loadConfig({ [ENV.accessToken]: 'tok' })).toThrow(
      new ConfigError(`Environment variable ${ENV.adminAddresses} is required`),
    );
    expect(() => loadConfig({ [ENV.adminAddresses]: 'http://a' })).toThrow(
      `Environment variable ${ENV.accessToken} or ${ENV.accessTokenSecretArn} is required`,
    );
    expect(() => loadConfig({ ...base, [ENV.adminAddresses]: 'admin:8080' })).toThrow(
      new RegExp(`^Environment variable ${ENV.adminAddresses} is invalid`),
    );
    expect(() => loadConfig({ ...base, [ENV.httpAllowList]: 'example.com' })).toThrow(
      new RegExp(`^Environment variable ${ENV.httpAllowList} is invalid`),
    );
    expect(() => loadConfig({ ...base, [ENV.reportMarginMs]: 'soon' })).toThrow(ENV.reportMarginMs);
  });
});
