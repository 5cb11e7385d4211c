/** True when `error` is the reason of `signal`, or an AbortError raised because it aborted. */
export function isAbortError(error: unknown, signal?: AbortSignal): boolean {
  return isNamedAbort(error) || (signal?.aborted === true && error === signal.reason);
}

function isNamedAbort(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    ((error as { name?: unknown }).name === 'AbortError' ||
      (error as { name?: unknown }).name === 'APIUserAbortError')
  );
}
