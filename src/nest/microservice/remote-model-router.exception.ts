import { ProviderException } from '../../core/errors/provider-exception.js';
import type { ErrorKind } from '../../core/resilience/error-classification.js';

/** The `provider` of errors about the model router service itself. */
export const MODEL_ROUTER_SERVICE = 'model-router-service';

export interface RemoteModelRouterExceptionDetails {
  kind: ErrorKind;
  /** The class name the service reported, when it was not one this library rebuilds. */
  remoteName?: string;
  status?: number;
  code?: string;
  retryAfterMs?: number;
  cause?: unknown;
}

/**
 * A RemoteChatModel call that the model router service did not answer with one of the library's
 * errors: the service is unreachable or the connection closed (`transient`), it has no handler
 * for the pattern (`misconfigured`), or it failed with an error of a class this side does not
 * know (`remoteName`, with the kind the service classified it as). A ProviderException, so a
 * local group treats the remote router like any other failing model (retry, failover, cooldown).
 */
export class RemoteModelRouterException extends ProviderException {
  readonly remoteName?: string;

  constructor(message: string, details: RemoteModelRouterExceptionDetails) {
    super(message, {
      kind: details.kind,
      provider: MODEL_ROUTER_SERVICE,
      ...(details.status !== undefined ? { status: details.status } : {}),
      ...(details.code !== undefined ? { code: details.code } : {}),
      ...(details.retryAfterMs !== undefined ? { retryAfterMs: details.retryAfterMs } : {}),
      ...(details.cause !== undefined ? { cause: details.cause } : {}),
    });
    if (details.remoteName !== undefined) this.remoteName = details.remoteName;
  }
}
