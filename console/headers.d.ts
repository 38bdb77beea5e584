export declare const CONTENT_SECURITY_POLICY: string;
export declare const CONSOLE_HEADERS: Readonly<{
  'content-security-policy': string;
  'x-content-type-options': 'nosniff';
  'x-frame-options': 'DENY';
  'referrer-policy': 'no-referrer';
  'strict-transport-security': string;
}>;
export declare const INDEX_CACHE_CONTROL: string;
export declare const ASSET_CACHE_CONTROL: string;
