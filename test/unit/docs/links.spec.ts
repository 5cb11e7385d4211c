// Every relative link of README.md, CHANGELOG.md and docs/*.md points at a file of the repository,
// and every anchor at a heading of its page; and the README stays a front door.
import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { anchors, links, markdownPages, readPage, repoRoot } from './support/markdown.js';

describe('links of the README, the changelog and docs/', () => {
  it.each(markdownPages())('%s: every relative link and anchor resolves', (page) => {
    const broken: string[] = [];
    for (const { target, line } of links(page)) {
      if (/^[a-z]+:/i.test(target)) continue; // https:, mailto:
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const file = path === '' ? join(repoRoot, page) : join(repoRoot, dirname(page), path);
      if (!existsSync(file)) broken.push(`${page}:${line}: ${target} (no such file)`);
      else if (anchor !== undefined && !anchors(relative(repoRoot, file)).has(anchor))
        broken.push(`${page}:${line}: ${target} (no such heading)`);
    }
    expect(broken).toEqual([]);
  });

  it('finds the anchors GitHub makes', () => {
    expect(anchors('README.md')).toContain('a-nest-app-in-three-files');
  });
});

describe('README.md', () => {
  it('stays a front door: at most 400 lines and 30 KB, the two commands first', () => {
    const readme = readPage('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(400);
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(30 * 1024);
    const start = readme.indexOf('npm ci && npm start');
    expect(start).toBeGreaterThan(0);
    expect(readme.indexOf('npm ci && npm test')).toBeGreaterThan(start);
    expect(readme.indexOf('// file: src/app.module.ts')).toBeLessThan(
      readme.indexOf('## Features'),
    );
  });
});
