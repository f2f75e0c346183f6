// The messages between the host and the warm sandbox's init (native/warm-init.c), pure: no I/O. A call is 'C', a
// u32 length and a body (header, rlimits, then NUL-terminated cwd, argv and env); the init answers with 8 bytes:
// a kind, three zero bytes and an int32 (the wait status). Both sides are little-endian Linux on x64 and arm64.
import { ZotboxError } from '../../../errors.js';

/** RLIMIT_* numbers of <sys/resource.h>, the same on x64 and arm64 (asm-generic). */
export const RLIMIT = { CPU: 0, FSIZE: 1, DATA: 2, STACK: 3, CORE: 4, NOFILE: 7, AS: 9, NPROC: 6 } as const;
/** RLIM_INFINITY: no limit. */
export const UNLIMITED = 0xffff_ffff_ffff_ffffn;

export interface WarmCall {
  /** An absolute path inside the sandbox; argv[0] is the program's absolute path (execve does no PATH lookup). */
  readonly cwd: string;
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly umask: number;
  readonly limits: readonly { readonly resource: number; readonly soft: bigint; readonly hard: bigint }[];
}

/** 'X': the command ended and the sandbox is as it was; 'D': it ended, and the sandbox must be dropped. */
export type WarmReply = { readonly kind: 'ready' } | { readonly kind: 'exited' | 'drop'; readonly status: number };

export const REPLY_BYTES = 8;
const MAX_BODY = 1 << 20;
const MAX_LIMITS = 16;

function encodeString(value: string, what: string): Buffer {
  if (value.includes('\0')) throw new ZotboxError('ZB_INTERNAL_BUG', `warm call: ${what} holds a NUL byte, which execve cannot pass`);
  return Buffer.from(`${value}\0`, 'utf8');
}

/** The bytes of one call; the caller attaches stdin, stdout and stderr to them. */
export function encodeCall(call: WarmCall): Buffer {
  if (call.argv.length === 0 || call.limits.length > MAX_LIMITS) throw new ZotboxError('ZB_INTERNAL_BUG', 'warm call: no program, or more limits than the init takes');
  const env = Object.entries(call.env).map(([name, value]) => encodeString(`${name}=${value}`, `the variable ${name}`));
  const header = Buffer.alloc(16);
  header.writeUInt32LE(call.umask & 0o777, 0);
  header.writeUInt32LE(call.limits.length, 4);
  header.writeUInt32LE(call.argv.length, 8);
  header.writeUInt32LE(env.length, 12);
  const limits = call.limits.map(({ resource, soft, hard }) => {
    const limit = Buffer.alloc(24);
    limit.writeUInt32LE(resource, 0);
    limit.writeBigUInt64LE(soft, 8);
    limit.writeBigUInt64LE(hard, 16);
    return limit;
  });
  const body = Buffer.concat([header, ...limits, encodeString(call.cwd, 'the directory'), ...call.argv.map((arg, i) => encodeString(arg, `argument ${i}`)), ...env]);
  if (body.length > MAX_BODY) throw new ZotboxError('ZB_INTERNAL_BUG', `warm call: ${body.length} bytes, more than the init reads (${MAX_BODY})`);
  const prefix = Buffer.alloc(5);
  prefix.write('C', 0, 'latin1');
  prefix.writeUInt32LE(body.length, 1);
  return Buffer.concat([prefix, body]);
}

/** The host's kill of a running call. */
export const KILL_MESSAGE = Buffer.from('K', 'latin1');

/** One reply of the init; undefined for anything it never sends (the caller drops the sandbox). */
export function decodeReply(bytes: Buffer): WarmReply | undefined {
  if (bytes.length !== REPLY_BYTES || bytes.readUInt8(1) !== 0 || bytes.readUInt16LE(2) !== 0) return undefined;
  const kind = String.fromCharCode(bytes.readUInt8(0));
  const value = bytes.readInt32LE(4);
  if (kind === 'R') return value === 0 ? { kind: 'ready' } : undefined;
  if (kind === 'X' || kind === 'D') return { kind: kind === 'X' ? 'exited' : 'drop', status: value };
  return undefined;
}

/** A wait status as a child process's exit: the code, or the signal's number. */
export function exitOf(status: number): { readonly code: number } | { readonly signal: number } {
  const signal = status & 0x7f;
  return signal === 0 ? { code: (status >> 8) & 0xff } : { signal };
}
