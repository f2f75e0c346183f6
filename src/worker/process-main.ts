// A pool process (issue 26 §3): the same agent task a worker thread runs, in a
// process of its own that the host starts with no environment and no descriptors
// but its three pipes. Its only way out is stdin and stdout, framed by
// process-frames.ts: for each run it makes the gate and model ports the task
// expects and carries their messages to and from the host, which checks them as
// it checks a thread's. It reaches no file, process or network API itself.
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { toZotboxError } from '../errors.js';
import { FrameDecoder, encodeFrame, type PortName } from '../policy/process-frames.js';

export type ProcessTask = (task: never) => unknown;
type Task = (task: Record<string, unknown>) => unknown;

interface HostFrameIn {
  readonly type: string;
  readonly run: number;
  readonly port?: PortName;
  readonly message?: unknown;
  readonly task?: Record<string, unknown>;
  readonly ports?: readonly PortName[];
}

/** The host's end of each port of each run here: what the host's messages are posted into. */
const runs = new Map<number, Map<PortName, MessagePort>>();

function send(frame: unknown): void {
  process.stdout.write(encodeFrame(frame));
}

/** A message too large for a frame never leaves: the request it was is answered here with the reason, as the host would. */
function answerUnsent(port: PortName, local: MessagePort, message: unknown, error: unknown): void {
  const id = (message as { id?: unknown } | null)?.id;
  const type = (message as { type?: unknown } | null)?.type;
  if (typeof id !== 'number') return;
  const wire = toZotboxError(error).toWire();
  if (port === 'gate' && (type === 'tool.call' || type === 'tool.refused')) local.postMessage({ type: 'tool.result', id, ok: false, error: wire });
  if (port === 'model' && type === 'model.request') local.postMessage({ type: 'model.response', id, ok: false, error: wire });
}

function startTask(task: Task, frame: HostFrameIn): void {
  const ends = new Map<PortName, MessagePort>();
  const taskPorts: Record<string, MessagePort> = {};
  for (const name of frame.ports ?? []) {
    const channel = new MessageChannel();
    ends.set(name, channel.port1);
    taskPorts[name === 'gate' ? 'gatePort' : 'modelPort'] = channel.port2;
    channel.port1.on('message', (message: unknown) => {
      try {
        send({ type: 'port.message', run: frame.run, port: name, message });
      } catch (error) {
        answerUnsent(name, channel.port1, message, error);
      }
    });
    channel.port1.on('close', () => {
      if (runs.get(frame.run)?.delete(name) === true) send({ type: 'port.close', run: frame.run, port: name });
    });
  }
  runs.set(frame.run, ends);
  Promise.resolve()
    .then(() => task({ ...frame.task, ...taskPorts }))
    .then(
      (result) => send({ type: 'task.end', run: frame.run, result }),
      (error: unknown) => send({ type: 'task.failed', run: frame.run, message: String((error as Error | undefined)?.message ?? error).slice(0, 4096) }),
    )
    .finally(() => {
      for (const end of ends.values()) end.close();
      runs.delete(frame.run);
    });
}

function receive(task: Task, frame: HostFrameIn): void {
  if (frame.type === 'task.start') return startTask(task, frame);
  const end = frame.port === undefined ? undefined : runs.get(frame.run)?.get(frame.port);
  if (end === undefined) return; // the run or port has ended here already
  if (frame.type === 'port.message') end.postMessage(frame.message);
  else if (frame.type === 'port.close') {
    runs.get(frame.run)?.delete(frame.port!);
    end.close();
  }
}

/**
 * Serves `task` to the host over stdin and stdout until the host closes stdin.
 * process-entry.ts calls it with the agent task; tests, with a task of their own.
 */
export function serveProcess(processTask: ProcessTask): void {
  const task = processTask as Task;
  // stdout carries frames: anything printed goes to stderr instead.
  console.log = console.info = console.debug = console.error;
  // bubblewrap sets PWD whatever it is given; the task sees an empty environment, as a thread does.
  delete process.env['PWD'];
  const decoder = new FrameDecoder();
  process.stdin.on('data', (chunk: Buffer) => {
    for (const frame of decoder.push(chunk)) receive(task, frame as HostFrameIn);
  });
  // The host closed the pipe: the pool is closing, and nothing here is wanted any more.
  process.stdin.on('end', () => process.exit(0));
  send({ type: 'process.ready' });
}
