import { describe, expect, it } from 'vitest';
import { adminApiUrl, parseAdminAddresses } from './admin-client.js';

describe('adminApiUrl', () => {
  it('joins base URLs with or without a context path and trailing slash', () => {
    expect(adminApiUrl('http://127.0.0.1:8080', 'callback')).toBe('http://127.0.0.1:8080/api/callback');
    expect(adminApiUrl('http://127.0.0.1:8080/', 'registry')).toBe('http://127.0.0.1:8080/api/registry');
    expect(adminApiUrl('http://host/xxl-job-admin', 'registryRemove')).toBe(
      'http://host/xxl-job-admin/api/registryRemove',
    );
    expect(adminApiUrl('http://host/xxl-job-admin//', 'callback')).toBe(
      'http://host/xxl-job-admin/api/callback',
    );
  });
});

describe('parseAdminAddresses', () => {
  it('splits a comma-separated list and trims entries', () => {
    expect(parseAdminAddresses(' http://a:8080 , http://b/xxl-job-admin/,')).toEqual([
      'http://a:8080',
      'http://b/xxl-job-admin/',
    ]);
    expect(parseAdminAddresses(['https://c'])).toEqual(['https://c']);
  });

  it('names a bad entry', () => {
    expect(() => parseAdminAddresses('')).toThrow(/at least one admin/);
    expect(() => parseAdminAddresses('admin:8080')).toThrow(/"admin:8080" must be http or https/);
    expect(() => parseAdminAddresses('nonsense')).toThrow(/"nonsense" is not a URL/);
  });
});
