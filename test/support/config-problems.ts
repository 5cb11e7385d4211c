import { expect } from '@jest/globals';
import { InvalidConfigurationException } from '../../src/core/errors/exceptions.js';
import { InvalidModelRouterConfigException } from '../../src/config/invalid-model-router-config.exception.js';

/** The problems a configuration is refused with (it must be refused, as a configuration error). */
export function problemsOf(parse: () => unknown): string[] {
  try {
    parse();
  } catch (error) {
    return problemsIn(error);
  }
  throw new Error('expected the configuration to be rejected');
}

/** The same, of a configuration read or built asynchronously. */
export async function problemsOfAsync(run: () => unknown): Promise<string[]> {
  try {
    await run();
  } catch (error) {
    return problemsIn(error);
  }
  throw new Error('expected the configuration to be rejected');
}

function problemsIn(error: unknown): string[] {
  expect(error).toBeInstanceOf(InvalidModelRouterConfigException);
  expect(error).toBeInstanceOf(InvalidConfigurationException);
  return [...(error as InvalidModelRouterConfigException).problems];
}
