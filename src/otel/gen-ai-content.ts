/** The opt-in of the GenAI semantic conventions for message content on spans. */
export const CAPTURE_CONTENT_ENV = 'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT';

/** Whether message content may go on spans: only when the variable says `true`. */
export function captureContentFromEnv(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[CAPTURE_CONTENT_ENV]?.trim().toLowerCase() === 'true';
}

/** Content as one span attribute (a JSON string); an unserialisable value is left out. */
export function contentAttribute(read: (() => unknown) | undefined): string | undefined {
  if (read === undefined) return undefined;
  try {
    const value = read();
    return value === undefined ? undefined : JSON.stringify(value);
  } catch {
    return undefined;
  }
}
