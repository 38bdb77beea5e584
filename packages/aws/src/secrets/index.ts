export { executorAccessTokens } from './access-tokens.js';
export { cachedTokenReader, resolveToken, type SecretReader } from './secrets.js';
