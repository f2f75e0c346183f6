// The seccomp filter bwrap loads into every confined command (`--seccomp FD`): a
// classic BPF program, pure data with no I/O. It must never allow a syscall ABI
// it has no table for, and never deny anything outside the list below.
//
// Why it exists: when zotbox runs as root the sandbox has no capabilities, but
// the kernel still sees its files as owned by host root (the write scopes must
// stay writable), so `chmod u+s` on a copy of bash in the workspace would leave
// a setuid-root binary on the host; for another user, setuid-that-user files.
//
// What it denies, and why (everything else is SECCOMP_RET_ALLOW):
// - a syscall made for another ABI (i386 `int 0x80` on x86_64, arm32 on arm64,
//   x32 numbers with bit 0x40000000): killed, as libseccomp does for a "bad
//   arch"; their numbers differ, so the rules below would not match them.
// - chmod, fchmod, fchmodat, fchmodat2: EPERM when the mode has S_ISUID or S_ISGID.
// - open, creat, openat, mkdir, mkdirat, mknod, mknodat: EPERM when the mode
//   argument has S_ISUID or S_ISGID, whatever the flags (simple and strict;
//   glibc passes mode 0 when it does not create).
// - openat2: ENOSYS, since its mode sits in a struct a filter cannot read (libc
//   and runtimes fall back to openat, which is checked).
// - io_uring_setup, io_uring_enter, io_uring_register: ENOSYS, since io_uring
//   operations (IORING_OP_OPENAT...) never pass through seccomp; callers fall back.
// - mq_open, mq_unlink, mq_timedsend, mq_timedreceive, mq_notify, mq_getsetattr:
//   ENOSYS. A POSIX message queue outlives the processes that made it (it lives as
//   long as the IPC namespace) and cannot be listed without mounting mqueue, which
//   needs a capability: a sandbox reused for the next command could not prove that
//   none was left for it. No build, test or editing tool needs one.
// - keyctl, add_key, request_key: EPERM. Keyrings are keyed by uid and the
//   session keyring is inherited, so a sandbox that is host root to the kernel
//   would possess the keys of the user who started zotbox.
// - bpf, perf_event_open, userfaultfd: EPERM. Large kernel attack surface (the
//   BPF verifier, perf counters that leak kernel state, page-fault stalls that
//   widen kernel races) that no build, test or editing tool needs.
// - socket: EAFNOSUPPORT unless the family is AF_INET, AF_INET6 or AF_NETLINK,
//   which the sandbox's own network namespace (loopback only) bounds. Pathname
//   unix sockets are not namespaced: one in any bound scope, even read-only, is a
//   host service (`tmux -S scope/tmux.sock run-shell` ran as root outside; docker,
//   D-Bus, ssh and gpg agents alike), and AF_VSOCK reaches this VM's hypervisor
//   side. So AF_UNIX and every other family, known or not, is as on a kernel
//   without it. io_uring's IORING_OP_SOCKET would bypass this: one more reason
//   io_uring is ENOSYS.
// - socketpair: allowed only for AF_UNIX SOCK_STREAM and SOCK_SEQPACKET (flags
//   such as SOCK_CLOEXEC above the low 4 type bits ignored), which libuv, Python
//   and others use for child pipes: such a pair is born connected and can address
//   no path. EPERM for other AF_UNIX types (SOCK_DGRAM can sendto() a path, and
//   the kernel turns SOCK_RAW into SOCK_DGRAM); EAFNOSUPPORT for other families.
// Not denied: ptrace (the PID namespace bounds it; gdb and strace inside are
// legitimate); chown and security.capability xattrs (they need CAP_CHOWN and
// CAP_SETFCAP, which the sandbox does not have).
import { ZotboxError } from '../../../errors.js';

/** What the filter does with one listed syscall. */
type SyscallRule =
  | { readonly kind: 'deny-special-mode'; readonly modeArg: 1 | 2 | 3 } // EPERM when args[modeArg] has S_ISUID|S_ISGID
  | { readonly kind: 'eperm' }
  | { readonly kind: 'enosys' }
  | { readonly kind: 'socket-family' } // EAFNOSUPPORT unless args[0] is in SOCKET_FAMILIES_ALLOWED
  | { readonly kind: 'socketpair-type' }; // allow only AF_UNIX with a type in SOCKETPAIR_UNIX_TYPES_ALLOWED

interface SyscallEntry {
  readonly name: string;
  /** x86_64 number, from arch/x86/entry/syscalls/syscall_64.tbl (checked against asm/unistd_64.h). */
  readonly x64: number | undefined;
  /** arm64 number, from include/uapi/asm-generic/unistd.h; undefined where arm64 has only the *at form. */
  readonly arm64: number | undefined;
  readonly rule: SyscallRule;
}

const specialMode = (modeArg: 1 | 2 | 3): SyscallRule => ({ kind: 'deny-special-mode', modeArg });
const EPERM_RULE: SyscallRule = { kind: 'eperm' };
const ENOSYS_RULE: SyscallRule = { kind: 'enosys' };

/** The listed syscalls. modeArg is the index of the mode argument in the kernel's (not libc's) signature. */
const SYSCALL_TABLE: readonly SyscallEntry[] = [
  { name: 'chmod', x64: 90, arm64: undefined, rule: specialMode(1) }, // (path, mode)
  { name: 'fchmod', x64: 91, arm64: 52, rule: specialMode(1) }, // (fd, mode)
  { name: 'fchmodat', x64: 268, arm64: 53, rule: specialMode(2) }, // (dfd, path, mode)
  { name: 'fchmodat2', x64: 452, arm64: 452, rule: specialMode(2) }, // (dfd, path, mode, flags); Linux 6.6, newer than Debian 12's headers
  { name: 'open', x64: 2, arm64: undefined, rule: specialMode(2) }, // (path, flags, mode)
  { name: 'creat', x64: 85, arm64: undefined, rule: specialMode(1) }, // (path, mode)
  { name: 'openat', x64: 257, arm64: 56, rule: specialMode(3) }, // (dfd, path, flags, mode)
  { name: 'mkdir', x64: 83, arm64: undefined, rule: specialMode(1) }, // (path, mode)
  { name: 'mkdirat', x64: 258, arm64: 34, rule: specialMode(2) }, // (dfd, path, mode)
  { name: 'mknod', x64: 133, arm64: undefined, rule: specialMode(1) }, // (path, mode, dev)
  { name: 'mknodat', x64: 259, arm64: 33, rule: specialMode(2) }, // (dfd, path, mode, dev)
  { name: 'openat2', x64: 437, arm64: 437, rule: ENOSYS_RULE },
  { name: 'io_uring_setup', x64: 425, arm64: 425, rule: ENOSYS_RULE },
  { name: 'io_uring_enter', x64: 426, arm64: 426, rule: ENOSYS_RULE },
  { name: 'io_uring_register', x64: 427, arm64: 427, rule: ENOSYS_RULE },
  { name: 'mq_open', x64: 240, arm64: 180, rule: ENOSYS_RULE },
  { name: 'mq_unlink', x64: 241, arm64: 181, rule: ENOSYS_RULE },
  { name: 'mq_timedsend', x64: 242, arm64: 182, rule: ENOSYS_RULE },
  { name: 'mq_timedreceive', x64: 243, arm64: 183, rule: ENOSYS_RULE },
  { name: 'mq_notify', x64: 244, arm64: 184, rule: ENOSYS_RULE },
  { name: 'mq_getsetattr', x64: 245, arm64: 185, rule: ENOSYS_RULE },
  { name: 'keyctl', x64: 250, arm64: 219, rule: EPERM_RULE },
  { name: 'add_key', x64: 248, arm64: 217, rule: EPERM_RULE },
  { name: 'request_key', x64: 249, arm64: 218, rule: EPERM_RULE },
  { name: 'bpf', x64: 321, arm64: 280, rule: EPERM_RULE },
  { name: 'perf_event_open', x64: 298, arm64: 241, rule: EPERM_RULE },
  { name: 'userfaultfd', x64: 323, arm64: 282, rule: EPERM_RULE },
  { name: 'socket', x64: 41, arm64: 198, rule: { kind: 'socket-family' } }, // (family, type, protocol)
  { name: 'socketpair', x64: 53, arm64: 199, rule: { kind: 'socketpair-type' } }, // (family, type, protocol, sv)
];

// linux/socket.h and linux/net.h. The kernel reads family and type as int: only the low words count.
const AF_UNIX = 1;
/** Families namespaced by the sandbox's network namespace, which holds only loopback. */
const SOCKET_FAMILIES_ALLOWED: readonly number[] = [2, 10, 16]; // AF_INET, AF_INET6, AF_NETLINK
/** Unix pairs that are born connected and cannot be pointed at a path. */
const SOCKETPAIR_UNIX_TYPES_ALLOWED: readonly number[] = [1, 5]; // SOCK_STREAM, SOCK_SEQPACKET
const SOCK_TYPE_MASK = 0xf; // SOCK_CLOEXEC and SOCK_NONBLOCK are ORed in above it

/** AUDIT_ARCH_* from linux/audit.h: EM_* | __AUDIT_ARCH_64BIT | __AUDIT_ARCH_LE. */
const ARCHITECTURES: Readonly<Record<string, { readonly auditArch: number; readonly column: 'x64' | 'arm64'; readonly x32Bit: boolean }>> = {
  x64: { auditArch: 0xc000003e, column: 'x64', x32Bit: true }, // EM_X86_64 = 62
  arm64: { auditArch: 0xc00000b7, column: 'arm64', x32Bit: false }, // EM_AARCH64 = 183
};

const X32_SYSCALL_BIT = 0x40000000;
const SPECIAL_MODE_BITS = 0o6000; // S_ISUID | S_ISGID
const EPERM = 1;
const ENOSYS = 38;
const EAFNOSUPPORT = 97;

// linux/filter.h and linux/seccomp.h
const BPF_LD_W_ABS = 0x20;
const BPF_ALU_AND_K = 0x54;
const BPF_JEQ_K = 0x15;
const BPF_JSET_K = 0x45;
const BPF_RET_K = 0x06;
const SECCOMP_RET_KILL_PROCESS = 0x80000000;
const SECCOMP_RET_ERRNO = 0x00050000;
const SECCOMP_RET_ALLOW = 0x7fff0000;
const OFFSET_NR = 0; // struct seccomp_data { int nr; __u32 arch; __u64 instruction_pointer; __u64 args[6]; }
const OFFSET_ARCH = 4;
const argLowWordOffset = (index: number): number => 16 + 8 * index; // both arches are little-endian

/** A jump target: 'next' (the following instruction) or the name of a label placed later in the program (BPF jumps only forward). */
type Target = string;

type Instruction =
  | { readonly op: 'load'; readonly offset: number }
  | { readonly op: 'and'; readonly k: number }
  | { readonly op: 'jeq' | 'jset'; readonly k: number; readonly ifTrue: Target; readonly ifFalse: Target }
  | { readonly op: 'return'; readonly action: number }
  | { readonly op: 'label'; readonly name: string };

/**
 * The classic BPF program for `bwrap --seccomp FD`: struct sock_filter
 * {u16 code; u8 jt; u8 jf; u32 k}, little-endian, 8 bytes each.
 * Throws ZB_CONFINEMENT_UNAVAILABLE on an architecture without a syscall table.
 */
export function buildSeccompFilter(arch: string = process.arch): Buffer {
  const target = Object.hasOwn(ARCHITECTURES, arch) ? ARCHITECTURES[arch] : undefined;
  if (target === undefined) {
    throw new ZotboxError(
      'ZB_CONFINEMENT_UNAVAILABLE',
      `the sandbox seccomp filter is not built for the ${arch} architecture (only x64 and arm64), so commands cannot be confined safely here. Fix: run zotbox on x64 or arm64, or run with --confine off to accept unconfined commands.`,
      { details: { arch, supported: Object.keys(ARCHITECTURES) } },
    );
  }
  const listed = SYSCALL_TABLE.flatMap((entry) => {
    const nr = entry[target.column];
    return nr === undefined ? [] : [{ nr, rule: entry.rule }];
  });
  const modeArgs = [...new Set(listed.flatMap(({ rule }) => (rule.kind === 'deny-special-mode' ? [rule.modeArg] : [])))].sort();
  const program: Instruction[] = [
    { op: 'load', offset: OFFSET_ARCH },
    { op: 'jeq', k: target.auditArch, ifTrue: 'next', ifFalse: 'kill' },
    { op: 'load', offset: OFFSET_NR },
    ...(target.x32Bit ? [{ op: 'jset', k: X32_SYSCALL_BIT, ifTrue: 'kill', ifFalse: 'next' } as const] : []),
    ...listed.map(({ nr, rule }): Instruction => ({ op: 'jeq', k: nr, ifTrue: ruleLabel(rule), ifFalse: 'next' })),
    { op: 'return', action: SECCOMP_RET_ALLOW },
    ...modeArgs.flatMap((index): Instruction[] => [
      { op: 'label', name: `mode-arg-${index}` },
      { op: 'load', offset: argLowWordOffset(index) },
      { op: 'jset', k: SPECIAL_MODE_BITS, ifTrue: 'eperm', ifFalse: 'allow' },
    ]),
    ...socketRules(listed.map(({ rule }) => rule.kind)),
    { op: 'label', name: 'kill' },
    { op: 'return', action: SECCOMP_RET_KILL_PROCESS },
    { op: 'label', name: 'eperm' },
    { op: 'return', action: SECCOMP_RET_ERRNO | EPERM },
    { op: 'label', name: 'enosys' },
    { op: 'return', action: SECCOMP_RET_ERRNO | ENOSYS },
    { op: 'label', name: 'eafnosupport' },
    { op: 'return', action: SECCOMP_RET_ERRNO | EAFNOSUPPORT },
    { op: 'label', name: 'allow' },
    { op: 'return', action: SECCOMP_RET_ALLOW },
  ];
  return assemble(program);
}

function ruleLabel(rule: SyscallRule): string {
  return rule.kind === 'deny-special-mode' ? `mode-arg-${rule.modeArg}` : rule.kind;
}

/** The blocks that socket and socketpair jump to, for the rule kinds the arch lists. */
function socketRules(kinds: readonly SyscallRule['kind'][]): Instruction[] {
  const socket: Instruction[] = [{ op: 'label', name: 'socket-family' }, { op: 'load', offset: argLowWordOffset(0) }, ...anyOf(SOCKET_FAMILIES_ALLOWED, 'allow', 'eafnosupport')];
  const socketpair: Instruction[] = [
    { op: 'label', name: 'socketpair-type' },
    { op: 'load', offset: argLowWordOffset(0) },
    { op: 'jeq', k: AF_UNIX, ifTrue: 'next', ifFalse: 'eafnosupport' },
    { op: 'load', offset: argLowWordOffset(1) },
    { op: 'and', k: SOCK_TYPE_MASK },
    ...anyOf(SOCKETPAIR_UNIX_TYPES_ALLOWED, 'allow', 'eperm'),
  ];
  return [...(kinds.includes('socket-family') ? socket : []), ...(kinds.includes('socketpair-type') ? socketpair : [])];
}

/** Jumps to `match` when the accumulator equals one of `values`, else to `otherwise`. */
function anyOf(values: readonly number[], match: Target, otherwise: Target): Instruction[] {
  return values.map((k, i): Instruction => ({ op: 'jeq', k, ifTrue: match, ifFalse: i === values.length - 1 ? otherwise : 'next' }));
}

/** Resolves labels to forward offsets and encodes each instruction as a struct sock_filter. */
function assemble(program: readonly Instruction[]): Buffer {
  const labels = new Map<string, number>();
  let count = 0;
  for (const instruction of program) {
    if (instruction.op === 'label') labels.set(instruction.name, count);
    else count += 1;
  }
  const out = Buffer.alloc(count * 8);
  let index = 0;
  const offsetTo = (where: Target): number => {
    if (where === 'next') return 0;
    const position = labels.get(where);
    const offset = position === undefined ? -1 : position - index - 1;
    // A bug in the table above, never an input fault: fail loudly rather than emit a wrong filter.
    if (offset < 0 || offset > 255) throw new ZotboxError('ZB_INTERNAL_BUG', `seccomp filter: jump from ${index} to "${where}" is not a forward jump within 255 instructions`);
    return offset;
  };
  for (const instruction of program) {
    if (instruction.op === 'label') continue;
    const [code, jt, jf, k] = encode(instruction, offsetTo);
    out.writeUInt16LE(code, index * 8);
    out.writeUInt8(jt, index * 8 + 2);
    out.writeUInt8(jf, index * 8 + 3);
    out.writeUInt32LE(k >>> 0, index * 8 + 4);
    index += 1;
  }
  return out;
}

/** One instruction as struct sock_filter fields {code, jt, jf, k}. */
function encode(instruction: Exclude<Instruction, { op: 'label' }>, offsetTo: (where: Target) => number): [number, number, number, number] {
  switch (instruction.op) {
    case 'load':
      return [BPF_LD_W_ABS, 0, 0, instruction.offset];
    case 'and':
      return [BPF_ALU_AND_K, 0, 0, instruction.k];
    case 'return':
      return [BPF_RET_K, 0, 0, instruction.action];
    case 'jeq':
    case 'jset':
      return [instruction.op === 'jeq' ? BPF_JEQ_K : BPF_JSET_K, offsetTo(instruction.ifTrue), offsetTo(instruction.ifFalse), instruction.k];
  }
}
