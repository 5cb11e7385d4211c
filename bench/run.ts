/**
 * Runs every benchmark in this folder (files named `*.bench.ts` exporting `run()`), or only those
 * whose names contain one of the command-line arguments: `npm run bench -- routing`.
 */
import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
const files = readdirSync(here)
  .filter((file) => file.endsWith('.bench.js'))
  .filter((file) => filters.length === 0 || filters.some((f) => file.includes(f)))
  .toSorted();

console.log(`node ${process.version}, ${process.platform}/${process.arch}`);
for (const file of files) {
  const module = (await import(pathToFileURL(`${here}/${file}`).href)) as { run?: () => unknown };
  if (typeof module.run !== 'function') throw new Error(`${file} does not export run()`);
  await module.run();
}
