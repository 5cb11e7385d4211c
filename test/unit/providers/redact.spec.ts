import { describe, expect, it } from '@jest/globals';
import { redactSecrets, scrubError } from '../../../src/providers/shared/redact.js';

describe('redactSecrets', () => {
  it('removes the configured key wherever it appears', () => {
    expect(redactSecrets('bad key my-local-key-42 (my-local-key-42)', ['my-local-key-42'])).toBe(
      'bad key [REDACTED] ([REDACTED])',
    );
  });

  it('removes key-shaped tokens it was not told about', () => {
    const text = 'Incorrect API key provided: sk-proj-AbC123xyz789. Header Bearer abcdefghijkl0123';
    const redacted = redactSecrets(text);
    expect(redacted).not.toContain('sk-proj-AbC123xyz789');
    expect(redacted).not.toContain('abcdefghijkl0123');
    expect(redacted).toContain('Incorrect API key provided');
  });

  it('leaves ordinary words alone, and very short "keys" too', () => {
    expect(redactSecrets('task-management risk-assessment', ['x'])).toBe(
      'task-management risk-assessment',
    );
  });
});

describe('scrubError', () => {
  it('redacts message, stack and the parsed body of an SDK error in place', () => {
    const error = Object.assign(new Error('401 Incorrect API key provided: secret-key-123'), {
      error: { error: { message: 'Incorrect API key provided: secret-key-123' } },
    });
    scrubError(error, ['secret-key-123']);
    expect(error.message).toBe('401 Incorrect API key provided: [REDACTED]');
    expect(error.stack).not.toContain('secret-key-123');
    expect(JSON.stringify(error.error)).not.toContain('secret-key-123');
  });
});
