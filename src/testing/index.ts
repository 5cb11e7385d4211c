// nest-model-router/testing: the fake provider for users' own tests.
export {
  FakeProvider,
  type FakeProviderLoad,
  type FakeProviderOptions,
} from './fake-provider/fake-provider.js';
export {
  FakeRequestLog,
  type RecordedRequest,
  type ModelRequests,
  type FakeEndpoint,
} from './fake-provider/request-log.js';
export type {
  FakeAnswer,
  FakeAnswerSource,
  FakeChatRequest,
  FakeMessage,
} from './fake-provider/fake-chat-request.js';
export {
  parseFault,
  faultInModelName,
  FAULT_NAMES,
  UnknownFaultError,
  type Fault,
  type FaultBehaviour,
  type RetryAfterHint,
} from './fake-provider/faults.js';
export { fakeEmbedding } from './fake-provider/fake-embedding.js';
