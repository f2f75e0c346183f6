// The typed face of native/fd-passing.c (built by `npm ci` through binding.gyp): the channel to a warm sandbox's
// init (a unix stream socket pair), anonymous pipes for a command's output, and a send with descriptors attached
// (SCM_RIGHTS). warm-sandbox.ts is its one user. Every descriptor it makes is close-on-exec; it never keeps one.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ZotboxError } from '../../../errors.js';
import { NATIVE_MODULE } from './inotify.js';

interface Binding {
  socketpair(): [number, number] | number;
  pipe(): [number, number] | number;
  send(fd: number, data: Buffer, descriptors: readonly number[]): number;
  sealedCopy(bytes: Buffer): number;
}

/** Beside the inotify module: node-gyp builds both into build/Release. */
export const FD_PASSING_MODULE = path.join(path.dirname(NATIVE_MODULE), 'zotbox_fd_passing.node');
/** The warm sandbox's init, an executable target of the same build. */
export const WARM_INIT_PROGRAM = path.join(path.dirname(NATIVE_MODULE), 'zotbox_warm_init');

let loaded: Binding | undefined;

function unavailable(what: string): ZotboxError {
  return new ZotboxError('ZB_CONFINEMENT_UNAVAILABLE', `the warm sandbox cannot start: ${what}. Fix: run npm ci in the zotbox package so that node-gyp builds build/Release.`, {
    details: { module: FD_PASSING_MODULE },
  });
}

function binding(): Binding {
  if (loaded === undefined) {
    try {
      loaded = createRequire(import.meta.url)(FD_PASSING_MODULE) as Binding;
    } catch (error) {
      throw unavailable(`the native module ${FD_PASSING_MODULE} could not be loaded (${String((error as Error).message.split('\n')[0])})`);
    }
  }
  return loaded;
}

function pairOf(result: [number, number] | number, call: string): { readonly a: number; readonly b: number } {
  if (typeof result === 'number') throw unavailable(`${call} failed (errno ${-result})`);
  return { a: result[0], b: result[1] };
}

/** Two connected ends of an AF_UNIX stream socket, both blocking and close-on-exec. */
export function makeSocketPair(): { readonly a: number; readonly b: number } {
  return pairOf(binding().socketpair(), 'socketpair');
}

/** A pipe: `a` the read end, `b` the write end, both close-on-exec. */
export function makePipe(): { readonly a: number; readonly b: number } {
  return pairOf(binding().pipe(), 'pipe2');
}

/** Sends all of `data` on the socket `fd`, `descriptors` attached to its first byte; the errno when it cannot. */
export function sendWithDescriptors(fd: number, data: Buffer, descriptors: readonly number[]): { readonly sent: true } | { readonly errno: number } {
  const result = binding().send(fd, data, descriptors);
  return result === 0 ? { sent: true } : { errno: -result };
}

let initCopy: number | undefined;

/**
 * A descriptor of the warm sandbox's init: a sealed in-memory copy of WARM_INIT_PROGRAM, read once per process and
 * kept (close-on-exec). Loaded with the native module when a run's isolation is made, before any command runs: a
 * package that lies in a write scope cannot hand a later sandbox a program of the agent's as its PID 1.
 */
export function warmInitDescriptor(): number {
  if (initCopy !== undefined) return initCopy;
  let bytes: Buffer;
  try {
    bytes = readFileSync(WARM_INIT_PROGRAM);
  } catch (error) {
    throw unavailable(`the init ${WARM_INIT_PROGRAM} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  const fd = binding().sealedCopy(bytes);
  if (fd < 0) throw unavailable(`memfd_create failed (errno ${-fd})`);
  initCopy = fd;
  return fd;
}
