// One bubblewrap sandbox kept for calls whose plan is identical (docs/proposals/warm-sandbox/DESIGN.md): started
// once with the init (native/warm-init.c) as its PID 1, then handed one call at a time over a socket pair, the
// command's stdio attached as descriptors. It owns the bwrap process, the channel and nothing else: whether a call
// may reuse it (plan identity, mount re-verification, cgroup) is decided by its caller before every call. Any
// reply it does not expect, the init's death, or a 'D' makes it dropped; a dropped sandbox never runs another call.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';
import { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { inheritableDescriptors, nullDescriptor } from './inherited-descriptors.js';
import { ZotboxError } from '../../../errors.js';
import { makePipe, makeSocketPair, sendWithDescriptors, warmInitDescriptor } from './fd-passing.js';
import { decodeReply, encodeCall, KILL_MESSAGE, REPLY_BYTES, type WarmCall } from './warm-init-protocol.js';

export interface WarmStart {
  /** bwrap's arguments that build the namespace (prepareSandbox's), up to the program. */
  readonly args: readonly string[];
  /** The descriptors those arguments name, as fd 4, 5, …, in this order (fd 3 is the init's channel). */
  readonly descriptors: readonly number[];
  /** The sandbox's own writable places, emptied after every call (/tmp, /dev/shm, state masks). */
  readonly emptied: readonly string[];
  /** Made anew, empty, after every call (HOME), inside an emptied place. */
  readonly made: readonly string[];
  readonly bwrap?: string;
}

export interface WarmResult {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
  /** The init could not make the sandbox as it was (or it died): the sandbox is dropped. */
  readonly dropped: boolean;
}

/** A call handed to the init: its output as it comes, and how it ended. */
export interface WarmRunning {
  readonly stdout: Readable;
  readonly stderr: Readable;
  /** The wait status once every process of the call has ended; `dropped` when the sandbox is gone with it. */
  readonly ended: Promise<{ readonly status: number; readonly dropped: boolean }>;
}

export interface WarmSandbox {
  /** The init's pid on the host: where the caller verifies the mounts before each call. */
  readonly pid: number;
  /** Hands one call to the init; its stdio are fresh pipes (stdin /dev/null). Throws when dropped or busy. */
  start(call: WarmCall): WarmRunning;
  /** `start`, with both outputs read to their end. */
  run(call: WarmCall): Promise<WarmResult>;
  /** Whether a call is running. */
  readonly busy: boolean;
  /** Ends the running call (the host's timeout or cancel): every process of the sandbox but the init is killed. */
  kill(): void;
  /** Ends the sandbox; resolves when bwrap has exited. */
  drop(): Promise<void>;
  /** Ends the sandbox without waiting (this process is exiting): bwrap's whole process group gets SIGKILL. */
  killNow(): void;
  readonly dropped: boolean;
}

function startFailed(why: string): ZotboxError {
  return new ZotboxError('ZB_CONFINEMENT_UNAVAILABLE', `the warm sandbox did not start: ${why}. Fix: check that bwrap works here (zotbox doctor).`, {
    details: { why },
  });
}

/** Reads the stream to its end. */
async function drain(stream: Readable): Promise<string> {
  let text = '';
  stream.setEncoding('utf8');
  for await (const chunk of stream) text += chunk as string;
  return text;
}

/** Replies of the init, in order, as they come: 8 bytes each; undefined once the channel ends. */
class ReplyReader {
  private buffered = Buffer.alloc(0);
  private waiting: ((reply: Buffer | undefined) => void) | undefined;
  private ended = false;
  /** Resolves when no process holds the init's end any more: the init (and every process it started) is gone. */
  readonly closed: Promise<void>;
  private markClosed: () => void = () => undefined;
  constructor(channel: Socket) {
    this.closed = new Promise((resolve) => (this.markClosed = resolve));
    channel.on('data', (chunk: Buffer) => {
      this.buffered = Buffer.concat([this.buffered, chunk]);
      this.deliver();
    });
    const end = () => {
      this.ended = true;
      this.deliver();
      this.markClosed();
    };
    channel.on('end', end);
    channel.on('close', end);
    channel.on('error', end);
  }
  next(): Promise<Buffer | undefined> {
    return new Promise((resolve) => {
      this.waiting = resolve;
      this.deliver();
    });
  }
  private deliver(): void {
    const waiting = this.waiting;
    if (waiting === undefined) return;
    if (this.buffered.length >= REPLY_BYTES) {
      this.waiting = undefined;
      waiting(this.buffered.subarray(0, REPLY_BYTES));
      this.buffered = this.buffered.subarray(REPLY_BYTES);
    } else if (this.ended) {
      this.waiting = undefined;
      waiting(undefined);
    }
  }
}

function initArguments(start: WarmStart): string[] {
  return [...start.emptied.flatMap((place) => ['--empty', place]), ...start.made.flatMap((place) => ['--make', place])];
}

/**
 * Starts the sandbox and waits for the init's ready byte. The init is executed through /proc/self/fd of a descriptor
 * bwrap inherits (no mount of its own, so the plan and its verification are the cold sandbox's); it closes every
 * descriptor above its channel first thing.
 */
export async function startWarmSandbox(start: WarmStart): Promise<WarmSandbox> {
  const channel = makeSocketPair();
  const initFd = warmInitDescriptor(); // the sealed copy, kept for the process's life
  const initSlot = 4 + start.descriptors.length;
  const infoSlot = initSlot + 1;
  const info = makePipe();
  let child: ChildProcess;
  try {
    const args = [...start.args, '--as-pid-1', '--info-fd', String(infoSlot), '--chdir', '/', '--', `/proc/self/fd/${initSlot}`, ...initArguments(start)];
    const stdio: ('ignore' | 'pipe' | number)[] = ['ignore', 'ignore', 'pipe', channel.b, ...start.descriptors, initFd, info.b];
    // What zotbox inherited without close-on-exec must not reach bubblewrap: /dev/null is laid over each (the init
    // closes everything above its channel too). No environment: the init gives each command the call's own.
    for (const fd of inheritableDescriptors()) {
      while (stdio.length <= fd) stdio.push('ignore');
      if (fd > infoSlot) stdio[fd] = nullDescriptor();
    }
    child = spawn(start.bwrap ?? 'bwrap', args, { stdio, detached: true, env: {} });
  } finally {
    closeSync(channel.b);
    closeSync(info.b);
  }
  const socket = new Socket({ fd: channel.a, readable: true, writable: false });
  const infoText = drain(new Socket({ fd: info.a, readable: true, writable: false }));
  let diagnostics = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (diagnostics = (diagnostics + chunk).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const replies = new ReplyReader(socket);
  const ready = decodeReply((await replies.next()) ?? Buffer.alloc(0));
  const pid = /"child-pid":\s*([0-9]+)/u.exec(await infoText)?.[1];
  if (ready?.kind !== 'ready' || pid === undefined) {
    child.kill('SIGKILL');
    socket.destroy();
    await exited;
    throw startFailed(diagnostics.trim() || 'the init sent no ready byte');
  }
  // Between calls nothing of it keeps this process alive: a run's end drops it, and --die-with-parent ends it with us.
  child.unref();
  (child.stderr as Socket | null)?.unref();
  socket.unref();
  return warmSandbox(Number(pid), child, socket, channel.a, replies, exited);
}

/** `channelFd` is the host's end, owned by `socket` (which reads the replies); calls are written to it natively. */
function warmSandbox(pid: number, child: ChildProcess, socket: Socket, channelFd: number, replies: ReplyReader, exited: Promise<void>): WarmSandbox {
  let dropped = false;
  let running = false;
  const killNow = () => {
    dropped = true;
    // detached: bwrap leads its own process group; --die-with-parent and the channel's end stop the init too.
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone: its exit is what `exited` waits for
      }
    }
  };
  const drop = async () => {
    killNow();
    // Awaited: the ends it waits for must keep this process alive until they come.
    child.ref();
    (child.stderr as Socket | null)?.ref(); // 'close' also waits for bwrap's stderr to end
    socket.ref();
    await exited;
    await replies.closed; // the channel's end: the init has exited, not only bwrap
    socket.destroy();
  };
  const sandbox: WarmSandbox = {
    pid,
    get dropped() {
      return dropped;
    },
    kill: () => {
      if (running && !dropped) sendWithDescriptors(channelFd, KILL_MESSAGE, []);
    },
    drop,
    killNow,
    get busy() {
      return running;
    },
    start: (call) => {
      if (dropped || running) throw new ZotboxError('ZB_INTERNAL_BUG', 'a warm sandbox ran a call while dropped or busy');
      running = true;
      socket.ref(); // the reply is awaited: keep the loop alive until it comes
      const stdout = makePipe();
      const stderr = makePipe();
      const stdin = openSync('/dev/null', constants.O_RDONLY);
      let sent: ReturnType<typeof sendWithDescriptors>;
      try {
        sent = sendWithDescriptors(channelFd, encodeCall(call), [stdin, stdout.b, stderr.b]);
      } finally {
        for (const fd of [stdin, stdout.b, stderr.b]) closeSync(fd);
      }
      const streams = { stdout: new Socket({ fd: stdout.a, readable: true, writable: false }), stderr: new Socket({ fd: stderr.a, readable: true, writable: false }) };
      const ended = (async () => {
        const reply = 'sent' in sent ? decodeReply((await replies.next()) ?? Buffer.alloc(0)) : undefined;
        running = false;
        socket.unref();
        if (reply === undefined || reply.kind === 'ready') {
          await drop();
          return { status: -1, dropped: true };
        }
        if (reply.kind === 'drop') await drop();
        return { status: reply.status, dropped: reply.kind === 'drop' };
      })();
      return { ...streams, ended };
    },
    run: async (call) => {
      const running = sandbox.start(call);
      const [out, err, end] = await Promise.all([drain(running.stdout), drain(running.stderr), running.ended]);
      return { status: end.status, stdout: out, stderr: err, dropped: end.dropped };
    },
  };
  return sandbox;
}
