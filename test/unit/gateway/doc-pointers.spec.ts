// Messages of the gateway send people to a section of the docs (`docs/gateway.md, "Running the
// gateway for a team"`): each such pointer names a page that exists and a heading it has.
import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const SOURCES = join(ROOT, 'apps/gateway/src');

function pointers(): { file: string; page: string; heading: string }[] {
  const found: { file: string; page: string; heading: string }[] = [];
  const files = readdirSync(SOURCES, { recursive: true, encoding: 'utf8' });
  for (const file of files.filter((name) => name.endsWith('.ts'))) {
    const text = readFileSync(join(SOURCES, file), 'utf8');
    for (const [, page, heading] of text.matchAll(/\b(README|docs\/[\w-]+\.md)[,:] "([^"]+)"/g)) {
      found.push({ file, page: page!, heading: heading! });
    }
  }
  return found;
}

describe('pointers from the gateway’s messages to the docs', () => {
  const all = pointers();

  it('are found (the messages that tell how to add keys use them)', () => {
    expect(all.length).toBeGreaterThanOrEqual(3);
  });

  it.each(all.map((pointer) => ({ ...pointer, name: `${pointer.file} → ${pointer.page}` })))(
    '$name names a heading of that page',
    ({ page, heading }) => {
      const path = join(ROOT, page === 'README' ? 'README.md' : page);
      const headings = readFileSync(path, 'utf8')
        .split('\n')
        .filter((line) => /^#{1,6} /.test(line))
        .map((line) => line.replace(/^#+ /, ''));
      expect(headings).toContain(heading);
    },
  );
});
