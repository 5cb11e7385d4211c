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

  it('leaves ordinary words alone, even for a one-letter key', () => {
    expect(redactSecrets('task-management risk-assessment', ['x'])).toBe(
      'task-management risk-assessment',
    );
  });

  it('removes a short key where it stands as a token (issue 12: keys under 6 were kept)', () => {
    expect(redactSecrets('Incorrect API key provided: abc12.', ['abc12'])).toBe(
      'Incorrect API key provided: [REDACTED].',
    );
    expect(redactSecrets('key=k3y&x=1', ['k3y'])).toBe('key=[REDACTED]&x=1');
  });

  it('removes the credentials of a URL, keeping its scheme and host', () => {
    const text =
      'Request cannot be constructed from a URL that includes credentials: http://user:pa55w0rd@10.0.0.1:8080/v1/chat/completions';
    const redacted = redactSecrets(text);
    expect(redacted).not.toContain('pa55w0rd');
    expect(redacted).not.toContain('user:');
    expect(redacted).toContain('http://[REDACTED]@10.0.0.1:8080/v1');
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
