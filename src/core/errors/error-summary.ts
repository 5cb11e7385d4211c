/** An error as events, logs and health show it: class and message only, never a credential. */
export interface ErrorSummary {
  name: string;
  message: string;
}

export function summarizeError(error: unknown): ErrorSummary {
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: typeof error, message: String(error) };
}
