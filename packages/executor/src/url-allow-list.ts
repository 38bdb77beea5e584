/**
 * An allow-list entry: a URL prefix (`https://api.example.com/v1/`: same scheme, host and port, and a path
 * under `/v1/`) or a RegExp tested against the full normalised URL (anchor it with `^`).
 *
 * @example
 * ```ts
 * const rules: UrlAllowRule[] = ['https://api.example.com/hooks/', /^https:\/\/[a-z]+\.internal\.example\.com\//];
 * ```
 */
export type UrlAllowRule = string | RegExp;

/**
 * Checks the rules themselves; throws a TypeError naming a prefix that is not an http(s) URL.
 *
 * @example
 * ```ts
 * validateAllowList(['https://api.example.com/']); // ok
 * validateAllowList(['api.example.com']);          // throws
 * ```
 */
export function validateAllowList(rules: readonly UrlAllowRule[]): void {
  for (const rule of rules) {
    if (rule instanceof RegExp) continue;
    const url = URL.canParse(rule) ? new URL(rule) : undefined;
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      throw new TypeError(`httpAllowList: "${rule}" is not an http(s) URL prefix`);
    }
  }
}

/**
 * Whether `url` may be called. URLs with credentials or a scheme other than http(s) never are; an empty
 * list allows nothing.
 *
 * @example
 * ```ts
 * isUrlAllowed('https://api.example.com/v1/x', ['https://api.example.com/v1']); // true
 * isUrlAllowed('https://api.example.com.evil.io/', ['https://api.example.com']); // false
 * ```
 */
export function isUrlAllowed(url: string, rules: readonly UrlAllowRule[]): boolean {
  if (!URL.canParse(url)) return false;
  const target = new URL(url);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return false;
  if (target.username || target.password) return false;
  return rules.some((rule) => {
    if (rule instanceof RegExp) {
      rule.lastIndex = 0;
      return rule.test(target.href);
    }
    if (!URL.canParse(rule)) return false;
    const prefix = new URL(rule);
    if (prefix.protocol !== target.protocol || prefix.host !== target.host) return false;
    const base = prefix.pathname;
    if (base === '/' || target.pathname === base) return true;
    return target.pathname.startsWith(base.endsWith('/') ? base : `${base}/`);
  });
}
