import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { InvalidConfigurationException } from '../../../src/core/errors/exceptions.js';
import { loadIntentCorpus, parseIntentCorpus } from '../../../src/embedded/intent-corpus.js';

describe('the intent corpus', () => {
  it('ships archetypes with distinct names, keywords and messages, generic and style ones marked', () => {
    const archetypes = loadIntentCorpus();
    const names = archetypes.map((archetype) => archetype.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(
      expect.arrayContaining(['coding', 'billing', 'shipping', 'feedback', 'simple-requests']),
    );
    for (const archetype of archetypes) {
      expect(archetype.description.length).toBeGreaterThan(10);
      expect(archetype.messages.length).toBeGreaterThanOrEqual(20);
    }
    expect(archetypes.filter((a) => a.generic).map((a) => a.name)).toEqual([
      'small-talk',
      'general-knowledge',
      'company-info',
    ]);
    expect(archetypes.filter((a) => a.style).map((a) => a.name)).toEqual([
      'simple-requests',
      'complex-requests',
    ]);
  });

  it('is read once per path', () => {
    expect(loadIntentCorpus()).toBe(loadIntentCorpus());
  });

  it('reads a corpus of its own from corpusPath', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'intent-corpus-')), 'corpus.json');
    writeFileSync(
      file,
      JSON.stringify({
        archetypes: [{ name: 'pets', description: 'cats and dogs', messages: ['my cat purrs'] }],
      }),
    );
    expect(loadIntentCorpus(file)).toEqual([
      {
        name: 'pets',
        description: 'cats and dogs',
        messages: ['my cat purrs'],
        generic: false,
        style: false,
      },
    ]);
  });

  it('rejects a missing file naming corpusPath, and malformed corpora naming the archetype', () => {
    expect(() => loadIntentCorpus('/nonexistent/corpus.json')).toThrow(/corpusPath/);
    expect(() => parseIntentCorpus([])).toThrow('expected { archetypes: [...] }');
    expect(() =>
      parseIntentCorpus({ archetypes: [{ name: 'a', description: 'b', messages: [1] }] }),
    ).toThrow(InvalidConfigurationException);
    expect(() =>
      parseIntentCorpus({ archetypes: [{ name: 'a', description: 'b', messages: [] }] }, 'x.json'),
    ).toThrow('x.json: archetype 0 needs a name, a description and a list of messages');
  });
});
