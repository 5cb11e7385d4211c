import { fork, type ChildProcess } from 'node:child_process';

export interface ServerStats {
  /** User + system CPU time of the server process so far, µs. */
  cpuMicros: number;
  rss: number;
  heapUsed: number;
}

/** A server the bench runs in a child process, talked to over IPC (see servers/server-ipc.ts). */
export class ChildServer {
  private nextId = 1;
  private readonly pending = new Map<number, (value: unknown) => void>();

  private constructor(
    readonly name: string,
    readonly port: number,
    private readonly child: ChildProcess,
  ) {
    child.on('message', (message: { id: number; value: unknown }) => {
      this.pending.get(message.id)?.(message.value);
      this.pending.delete(message.id);
    });
  }

  static start(
    name: string,
    script: string,
    args: string[] = [],
    execArgv: string[] = [],
    env: Record<string, string> = {},
  ): Promise<ChildServer> {
    const child = fork(script, args, {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      execArgv,
      env: { ...process.env, ...env },
    });
    return new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`${name} exited with code ${code}`)));
      child.once('message', (message: { value: { port: number } }) =>
        resolve(new ChildServer(name, message.value.port, child)),
      );
    });
  }

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** CPU and memory now; `settled`: after a full garbage collection. */
  stats(settled = false): Promise<ServerStats> {
    return this.ask(settled ? 'settled-stats' : 'stats') as Promise<ServerStats>;
  }

  /**
   * CPU and memory once the process has settled (settledMemory: full collections a second apart
   * until two agree). Right after a load, V8 is still unmapping the pages its last collections
   * freed: one snapshot then counts 0–70 MB that are gone a second later.
   */
  quietStats(): Promise<ServerStats> {
    return this.ask('quiet-stats') as Promise<ServerStats>;
  }

  /** Writes a heap snapshot in the server's working directory; returns its file name. */
  heapSnapshot(): Promise<string> {
    return this.ask('heap') as Promise<string>;
  }

  stop(): void {
    this.child.removeAllListeners('exit');
    this.child.kill();
  }

  private ask(command: string): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.child.send({ id, command });
    });
  }
}
