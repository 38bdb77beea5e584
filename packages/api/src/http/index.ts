export { type Authenticator, bearerAuth, bearerCredentials, constantTimeEquals } from './auth.js';
export {
  clientAddress,
  EDGE_SECRET_HEADER,
  isFromEdge,
  parseViewerAddress,
  VIEWER_ADDRESS_HEADER,
  withClientAddress,
} from './client-address.js';
export { MethodNotAllowedError } from './errors.js';
export { createHttpHandler, errorResult, type HttpHandlerOptions } from './handler.js';
export {
  fromApiGatewayV2,
  type HttpRequest,
  parseBody,
  parseJsonBody,
  type RoutedRequest,
} from './request.js';
export { created, type HttpResult, noContent, ok, text, toApiGatewayV2 } from './response.js';
export { type PathParams, type RouteHandler, type RouteMatch, Router } from './router.js';
export {
  type HttpMethod,
  type Problem,
  problemsOf,
  RequestValidationError,
  type RouteContract,
  type ValidInput,
  type ValidRequest,
} from './validation.js';
