import { describe, expect, it } from 'vitest';
import { isUrlAllowed, validateAllowList } from './url-allow-list.js';

describe('isUrlAllowed', () => {
  const rules = [
    'https://api.example.com/v1',
    'http://127.0.0.1:8080/',
    /^https:\/\/[a-z]+\.hooks\.example\.org\//,
  ];

  it('allows URLs under a prefix, on the same scheme, host and port', () => {
    expect(isUrlAllowed('https://api.example.com/v1', rules)).toBe(true);
    expect(isUrlAllowed('https://api.example.com/v1/orders?x=1', rules)).toBe(true);
    expect(isUrlAllowed('http://127.0.0.1:8080/anything', rules)).toBe(true);
    expect(isUrlAllowed('https://build.hooks.example.org/run', rules)).toBe(true);
  });

  it('refuses look-alike hosts, other ports and schemes, sibling paths, traversal and credentials', () => {
    expect(isUrlAllowed('https://api.example.com.evil.io/v1', rules)).toBe(false);
    expect(isUrlAllowed('https://api.example.com@evil.io/v1', rules)).toBe(false);
    expect(isUrlAllowed('https://user:pw@api.example.com/v1/x', rules)).toBe(false);
    expect(isUrlAllowed('http://api.example.com/v1/x', rules)).toBe(false);
    expect(isUrlAllowed('http://127.0.0.1:8081/', rules)).toBe(false);
    expect(isUrlAllowed('https://api.example.com/v10', rules)).toBe(false);
    expect(isUrlAllowed('https://api.example.com/v1/../admin', rules)).toBe(false);
    expect(isUrlAllowed('https://api.example.com/v1/%2e%2e/admin', rules)).toBe(false);
    expect(isUrlAllowed('file:///etc/passwd', rules)).toBe(false);
    expect(isUrlAllowed('not a url', rules)).toBe(false);
  });

  it('allows nothing with an empty list', () => {
    expect(isUrlAllowed('https://api.example.com/v1', [])).toBe(false);
  });
});

describe('validateAllowList', () => {
  it('rejects a prefix that is not an http(s) URL', () => {
    expect(() => validateAllowList(['api.example.com'])).toThrow(
      /"api.example.com" is not an http\(s\) URL prefix/,
    );
    expect(() => validateAllowList(['ftp://x/'])).toThrow(TypeError);
    expect(() => validateAllowList(['https://ok.example.com/', /x/])).not.toThrow();
  });
});
