/**
 * Runs every benchmark in this folder and its subfolders (files named `*.bench.ts` exporting
 * `run()`; the decision models' are in decision/), or only those whose names contain one of the
 * command-line arguments: `npm run bench -- routing`.
 */
import { readdirSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
const files = readdirSync(here, { recursive: true })
  .map(String)
  .filter((file) => file.endsWith('.bench.js'))
  .filter((file) => filters.length === 0 || filters.some((f) => basename(file).includes(f)))
  .toSorted((a, b) => basename(a).localeCompare(basename(b)));

console.log(`node ${process.version}, ${process.platform}/${process.arch}`);
for (const file of files) {
  const module = (await import(pathToFileURL(`${here}/${file}`).href)) as { run?: () => unknown };
  if (typeof module.run !== 'function') throw new Error(`${file} does not export run()`);
  await module.run();
}
