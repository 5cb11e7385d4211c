// Reads the README and docs/*.md as the tests of test/unit/docs need them: their fenced code blocks
// (each TypeScript block names the file it is, on its first line), their links and their headings.
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
/** Where the snippets are written, one folder per page (gitignored with the rest of build/). */
export const snippetsRoot = join(repoRoot, 'build', 'snippets');
/** Where the type-check writes them afresh, so that a snippet removed from a page is gone. */
export const typeCheckRoot = join(repoRoot, 'build', 'snippets-tsc');

export interface CodeBlock {
  /** The fence's language: `ts`, `yaml`, `bash`, `jsonc`… */
  lang: string;
  /** From the block's first line `// file: <path>` or `# file: <path>`, if it has one. */
  file?: string;
  code: string;
  /** 1-based line of the opening fence, for messages. */
  line: number;
}

/** README.md, CHANGELOG.md and every docs/*.md, as paths relative to the repository. */
export function markdownPages(): string[] {
  const docs = readdirSync(join(repoRoot, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .toSorted()
    .map((name) => `docs/${name}`);
  return ['README.md', 'CHANGELOG.md', ...docs];
}

export function readPage(page: string): string {
  return readFileSync(join(repoRoot, page), 'utf8');
}

const FILE_MARKER = /^(?:\/\/|#)\s*file:\s*(\S+)\s*$/;

export function codeBlocks(page: string): CodeBlock[] {
  const lines = readPage(page).split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !lines[i]!.startsWith('```'); i++) body.push(lines[i]!);
    const file = FILE_MARKER.exec(body[0] ?? '')?.[1];
    blocks.push({ lang: open[1] ?? '', file, code: body.join('\n') + '\n', line: start + 1 });
  }
  return blocks;
}

export const isTypeScript = (block: CodeBlock): boolean =>
  ['ts', 'typescript'].includes(block.lang);

/** `README.md` → `readme`, `docs/nest-module.md` → `nest-module`: a page's snippet folder. */
export function pageSlug(page: string): string {
  return page === 'README.md' ? 'readme' : page.replace(/^docs\//, '').replace(/\.md$/, '');
}

/**
 * Writes every block of a page that names a file into `<root>/<slug>/<file>` and returns
 * the paths written. Each file is written to a temporary name and renamed, so a test reading the
 * folder while another writes it never sees half a file.
 */
export function writeSnippets(page: string, root = snippetsRoot): string[] {
  const folder = join(root, pageSlug(page));
  const written: string[] = [];
  for (const block of codeBlocks(page)) {
    if (block.file === undefined) continue;
    const target = join(folder, block.file);
    if (relative(folder, target).startsWith('..'))
      throw new Error(`${page}:${block.line}: ${block.file} leaves its folder`);
    mkdirSync(dirname(target), { recursive: true });
    const temporary = `${target}.${process.pid}.tmp`;
    writeFileSync(temporary, block.code);
    renameSync(temporary, target);
    written.push(target);
  }
  return written;
}

/** Where a page's snippet file is, to import it. */
export function snippetPath(page: string, file: string): string {
  return join(snippetsRoot, pageSlug(page), file);
}

export interface Link {
  target: string;
  line: number;
}

/** Markdown links and images outside code blocks and code spans. */
export function links(page: string): Link[] {
  const found: Link[] = [];
  let fenced = false;
  readPage(page)
    .split('\n')
    .forEach((text, index) => {
      if (text.startsWith('```')) fenced = !fenced;
      if (fenced) return;
      const prose = text.replace(/`[^`]*`/g, '');
      for (const match of prose.matchAll(/\]\(([^)\s]+)\)/g))
        found.push({ target: match[1]!, line: index + 1 });
    });
  return found;
}

/** GitHub's anchors for a page's headings (lower case, punctuation dropped, spaces → `-`). */
export function anchors(page: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  let fenced = false;
  for (const text of readPage(page).split('\n')) {
    if (text.startsWith('```')) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*)$/.exec(text);
    if (!heading) continue;
    const base = heading[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

/**
 * Every file that the TypeScript and YAML snippets make, and the spec of test/unit/docs that runs or
 * loads it (beyond the one tsc run that checks them all). A new snippet fails
 * snippets-compile.spec.ts until it is listed here and exercised there.
 */
export const EXERCISED_BY: Record<string, string> = {
  'README.md tsconfig.json': 'snippets-compile.spec.ts',
  'README.md src/app.module.ts': 'readme-app.spec.ts',
  'README.md src/chat.controller.ts': 'readme-app.spec.ts',
  'README.md src/main.ts': 'readme-app.spec.ts',
  'README.md src/try-it.ts': 'readme-try-it.spec.ts',
  'README.md src/tracing.ts': 'readme-tracing.spec.ts',
  'docs/core.md core-example.ts': 'core-snippets.spec.ts',
  'docs/providers.md providers.ts': 'core-snippets.spec.ts',
  'docs/resilience.md breaker.ts': 'core-snippets.spec.ts',
  'docs/testing.md fake-provider-example.ts': 'core-snippets.spec.ts',
  'docs/decision-models.md decide.ts': 'core-snippets.spec.ts',
  'docs/decision-models.md learn.ts': 'core-snippets.spec.ts',
  'docs/nest-module.md app.module.ts': 'nest-snippets.spec.ts',
  'docs/nest-module.md yaml.module.ts': 'nest-snippets.spec.ts',
  'docs/nest-module.md config/model-router.yaml': 'nest-snippets.spec.ts',
  'docs/nest-module.md support.controller.ts': 'nest-snippets.spec.ts',
  'docs/nest-module.md redact-card-numbers.interceptor.ts': 'nest-snippets.spec.ts',
  'docs/nest-module.md routing-alerts.ts': 'nest-snippets.spec.ts',
  'docs/nest-module.md health.controller.ts': 'nest-snippets.spec.ts',
  'docs/nest-module.md metrics.module.ts': 'nest-snippets.spec.ts',
  'docs/nest-module.md status.module.ts': 'status-snippets.spec.ts',
  'docs/cost-and-limits.md config/model-router.yaml': 'nest-snippets.spec.ts',
  'docs/gateway.md config/gateway.yaml': 'nest-snippets.spec.ts',
  'docs/cache.md config/model-router.yaml': 'cache-snippets.spec.ts',
  'docs/redis.md shared-state.module.ts': 'redis-and-microservice-snippets.spec.ts',
  'docs/redis.md config/model-router.yaml': 'redis-and-microservice-snippets.spec.ts',
  'docs/redis.md redis-topologies.ts': 'redis-and-microservice-snippets.spec.ts',
  'docs/microservice.md router-service/router-service.module.ts':
    'redis-and-microservice-snippets.spec.ts',
  'docs/microservice.md router-service/main.ts': 'redis-and-microservice-snippets.spec.ts',
  'docs/microservice.md api-service/api.module.ts': 'redis-and-microservice-snippets.spec.ts',
  'docs/ai-sdk.md ai-sdk-in.ts': 'ai-sdk-snippets.spec.ts',
  'docs/ai-sdk.md ai-sdk.module.ts': 'ai-sdk-snippets.spec.ts',
  'docs/ai-sdk.md ai-sdk-out.ts': 'ai-sdk-snippets.spec.ts',
};
