export { cachedTokenReader, resolveToken, type SecretReader } from './secrets.js';
