import { writeHeapSnapshot } from 'node:v8';
import { memoryAfterGc, settledMemory } from '../lib/heap.js';

/**
 * The bench's side channel to a server it started: the server reports its port once it listens,
 * and answers `stats` (CPU time and memory of its own process) and `heap` (a heap snapshot file).
 */
export function serveBenchIpc(port: number): void {
  process.on('message', (message: { id: number; command: string }) => {
    void answer(message.command).then((value) => process.send?.({ id: message.id, value }));
  });
  // the bench went away (or failed): no orphan keeps the port, or the bench's output, open
  process.on('disconnect', () => process.exit(0));
  process.send?.({ id: 0, value: { port } });
}

async function answer(command: string): Promise<unknown> {
  if (command === 'heap') return writeHeapSnapshot();
  const cpu = process.cpuUsage();
  const settled =
    command === 'settled-stats'
      ? await memoryAfterGc()
      : command === 'quiet-stats'
        ? await settledMemory()
        : undefined;
  return {
    cpuMicros: cpu.user + cpu.system,
    rss: settled?.rss ?? process.memoryUsage().rss,
    heapUsed: settled?.heapUsed ?? process.memoryUsage().heapUsed,
  };
}
