import { describe, expect, it } from '@jest/globals';
import { SharingStatus } from '../../../src/redis/sharing-status.js';

const refused = new Error("Stream isn't writeable and enableOfflineQueue options is false");

const status = () =>
  new SharingStatus({
    clock: () => 0,
    warn: () => undefined,
    redact: (error) => (error as Error).message,
  });

describe('SharingStatus.lastError', () => {
  it('keeps the cause when commands are then refused during the reconnect', () => {
    const sharing = status();
    sharing.noteError(new Error('Command timed out'));
    sharing.noteError(refused);
    expect(sharing.lastError).toBe('Command timed out');
    sharing.noteError(new Error('OOM command not allowed'));
    expect(sharing.lastError).toBe('OOM command not allowed');
  });

  it('shows a refusal when it is all there is', () => {
    const sharing = status();
    sharing.noteError(refused);
    expect(sharing.lastError).toBe(refused.message);
  });
});
