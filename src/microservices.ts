// nest-model-router/microservices: the router as a Nest microservice, over any
// @nestjs/microservices transport (an optional peer dependency, needed by the server side only).
export {
  MODEL_ROUTER_PATTERNS,
  type ModelRouterPattern,
  type RemoteChatPayload,
  type RemoteCancelPayload,
  type RemoteCancelReply,
  type RemoteModelsReply,
} from './nest/microservice/model-router-patterns.js';
export { ModelRouterMicroserviceModule } from './nest/microservice/model-router-microservice.module.js';
export {
  RemoteChatModel,
  DEFAULT_REMOTE_TIMEOUT_MS,
  type RemoteChatModelOptions,
  type RemoteChatCallOptions,
} from './nest/microservice/remote-chat-model.js';
export type { ModelRouterClient } from './nest/microservice/model-router-client.js';
export { REMOTE_SERVED_ATTRIBUTE } from './nest/microservice/remote-served.js';
export {
  RemoteModelRouterException,
  type RemoteModelRouterExceptionDetails,
} from './nest/microservice/remote-model-router.exception.js';
export {
  toRemoteError,
  fromRemoteError,
  isRemoteErrorData,
  type RemoteErrorData,
} from './nest/microservice/remote-error-codec.js';
