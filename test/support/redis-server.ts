import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RedisServerOptions {
  /** Fixed port; default: a free loopback port. */
  port?: number;
  /** Starts the server with `requirepass`. */
  password?: string;
  /** Extra `redis-server` arguments, e.g. `['--maxmemory', '10mb']`. */
  args?: string[];
  /** How long to wait for the server to answer PING. */
  startTimeoutMs?: number;
  /**
   * Runs a sentinel instead: these lines are its configuration file (a sentinel rewrites its
   * file, so it gets one of its own in the server's directory).
   */
  sentinelConfig?: string;
}

/**
 * A real `redis-server` on 127.0.0.1, in its own temporary directory, without persistence (no RDB,
 * no AOF), so a restart comes back empty, as a crashed cache would.
 */
export interface RedisServer {
  readonly host: '127.0.0.1';
  readonly port: number;
  /** `redis://127.0.0.1:<port>` (with the password when one was set). */
  readonly url: string;
  /** Whether the process is running. */
  readonly running: boolean;
  /** SIGKILL, as a crash would: clients see their connections drop. Resolves once it is gone. */
  kill(): Promise<void>;
  /** Starts it again on the same port (after kill/stop). */
  restart(): Promise<void>;
  /** Graceful stop and removal of the temporary directory. Safe to call twice. */
  stop(): Promise<void>;
}

let cachedAvailability: boolean | undefined;

/** Whether `redis-server` can be run here (CI installs the Debian package). */
export function isRedisServerAvailable(): boolean {
  if (cachedAvailability === undefined) {
    const probe = spawnSync('redis-server', ['--version'], { stdio: 'ignore' });
    cachedAvailability = probe.status === 0;
  }
  return cachedAvailability;
}

export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  if (!isRedisServerAvailable()) {
    throw new Error(
      'redis-server is not on PATH: install it (`apt-get install -y redis-server`, `brew install redis`); ' +
        '`npm test` installs it itself as root on Debian/Ubuntu (.ci/ensure-redis-server)',
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'model-router-redis-'));
  const startTimeoutMs = options.startTimeoutMs ?? 10_000;
  // A free port can be taken between probing and binding; try a few before giving up.
  let lastError: unknown;
  for (let attempt = 0; attempt < (options.port === undefined ? 5 : 1); attempt++) {
    const port = options.port ?? (await freeLoopbackPort());
    const server = new ManagedRedisServer(port, dir, options, startTimeoutMs);
    try {
      await server.restart();
      return server;
    } catch (error) {
      lastError = error;
    }
  }
  rmSync(dir, { recursive: true, force: true });
  throw lastError;
}

class ManagedRedisServer implements RedisServer {
  readonly host = '127.0.0.1' as const;
  readonly url: string;
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private removed = false;

  constructor(
    readonly port: number,
    private readonly dir: string,
    private readonly options: RedisServerOptions,
    private readonly startTimeoutMs: number,
  ) {
    const auth = options.password ? `:${encodeURIComponent(options.password)}@` : '';
    this.url = `redis://${auth}127.0.0.1:${port}`;
  }

  get running(): boolean {
    return this.child !== undefined;
  }

  async restart(): Promise<void> {
    if (this.child) return;
    const sentinel = this.options.sentinelConfig;
    if (sentinel !== undefined && !existsSync(join(this.dir, 'sentinel.conf'))) {
      writeFileSync(join(this.dir, 'sentinel.conf'), sentinel);
    }
    const args = [
      ...(sentinel !== undefined ? [join(this.dir, 'sentinel.conf'), '--sentinel'] : []),
      '--port',
      String(this.port),
      '--bind',
      '127.0.0.1',
      '--dir',
      this.dir,
      ...(sentinel !== undefined ? [] : ['--save', '', '--appendonly', 'no']),
      '--daemonize',
      'no',
      '--loglevel',
      'warning',
      ...(this.options.password ? ['--requirepass', this.options.password] : []),
      ...(this.options.args ?? []),
    ];
    const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    let exitedEarly = false;
    this.exited = new Promise((resolve) => {
      child.once('exit', () => {
        // a fork of the server (a replication or RDB child) may still hold its output pipes
        child.stdout?.destroy();
        child.stderr?.destroy();
        exitedEarly = true;
        if (this.child === child) this.child = undefined;
        resolve();
      });
    });
    this.child = child;
    const deadline = Date.now() + this.startTimeoutMs;
    while (!(await answersPing(this.port, this.options.password))) {
      if (exitedEarly || Date.now() > deadline) {
        child.kill('SIGKILL');
        await this.exited;
        throw new Error(
          `redis-server did not start on port ${this.port}: ${output.trim() || 'no output'}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async kill(): Promise<void> {
    this.child?.kill('SIGKILL');
    await this.exited;
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (child) {
      child.kill('SIGTERM');
      const forced = setTimeout(() => child.kill('SIGKILL'), 3_000);
      await this.exited;
      clearTimeout(forced);
    }
    if (!this.removed) {
      this.removed = true;
      rmSync(this.dir, { recursive: true, force: true });
    }
  }
}

export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** One PING over a raw socket (no client library), so the helper depends on nothing. */
function answersPing(port: number, password?: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let reply = '';
    const done = (ok: boolean): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), 500);
    socket.once('error', () => done(false));
    socket.once('connect', () => {
      if (password) socket.write(respCommand('AUTH', password));
      socket.write(respCommand('PING'));
    });
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (reply.includes('+PONG')) done(true);
      else if (reply.includes('-LOADING') || reply.includes('-ERR')) done(false);
    });
  });
}

function respCommand(...parts: string[]): string {
  return `*${parts.length}\r\n${parts.map((p) => `$${Buffer.byteLength(p)}\r\n${p}\r\n`).join('')}`;
}
