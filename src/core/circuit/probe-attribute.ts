/**
 * Set (to `true`) in the call attributes a model receives when its circuit breaker admitted the
 * call as a half-open probe. A probe asks one question, "is the model back?": the resilience
 * layer then makes one attempt instead of its retries, so a provider that is still down gets one
 * request per cooldown, not three.
 */
export const PROBE_ATTRIBUTE = 'model_router_probe';

/** Whether call attributes mark a half-open probe. */
export function isProbeCall(attributes: Readonly<Record<string, unknown>> | undefined): boolean {
  return attributes?.[PROBE_ATTRIBUTE] === true;
}
