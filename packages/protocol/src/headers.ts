/** Header carrying the access token, in both directions (matched case-insensitively). */
export const ACCESS_TOKEN_HEADER = 'XXL-JOB-ACCESS-TOKEN';
/**
 * Header naming the executor's AppName, in both directions. Required beside the token by XXL-JOB 3.5
 * (master); older peers ignore it, so it is always safe to send.
 */
export const APPNAME_HEADER = 'XXL-JOB-APPNAME';
/** What clients send as `Content-Type`. */
export const REQUEST_CONTENT_TYPE = 'application/json;charset=UTF-8';
/** What the Java executor answers with (the body is JSON all the same). */
export const EXECUTOR_RESPONSE_CONTENT_TYPE = 'text/html;charset=UTF-8';
