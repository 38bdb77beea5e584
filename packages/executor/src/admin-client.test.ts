import { describe, expect, it } from 'vitest';
import { parseAdminAddresses } from './admin-client.js';

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
