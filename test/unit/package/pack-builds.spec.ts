// The README tells a newcomer to install the package from `npm pack` in a fresh clone, where no
// dist/ exists yet: packing must build first, or the tarball has no code and every import fails.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';

const manifest = JSON.parse(
  readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'),
) as { scripts: Record<string, string>; files: string[]; main: string };

describe('npm pack', () => {
  it('builds dist/ before packing it', () => {
    expect(manifest.scripts.prepack).toBe('npm run build');
    expect(manifest.scripts.build).toContain('tsconfig.build.json');
    expect(manifest.files).toContain('dist');
    expect(manifest.main.startsWith('./dist/')).toBe(true);
  });
});
