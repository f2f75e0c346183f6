// The sandbox seccomp filter, two ways: an independent BPF interpreter runs the
// program against hand-written seccomp_data (both arches), and real bwrap runs
// commands under it (this machine's arch). The bwrap tests fail, never skip,
// when bwrap cannot start: the filter is a boundary and must be proven to hold.
import test, { type ExecutionContext } from 'ava';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, existsSync, openSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { buildSeccompFilter } from '../../../../src/host/executors/confine/seccomp-filter.js';
import { tempDir } from '../../../fixtures/temp.js';

// Expected actions and arches, written out from linux/seccomp.h and linux/audit.h.
const KILL = 0x80000000;
const EPERM = 0x00050001;
const ENOSYS = 0x00050026;
const EAFNOSUPPORT = 0x00050061; // errno 97
const ALLOW = 0x7fff0000;
const AUDIT_X86_64 = 0xc000003e;
const AUDIT_AARCH64 = 0xc00000b7;
const AUDIT_I386 = 0x40000003;

interface SeccompData {
  readonly arch: number;
  readonly nr: number;
  readonly args?: readonly bigint[];
}

/** A classic-BPF interpreter for seccomp, written from the kernel's filter docs, not from the builder. */
function runFilter(program: Buffer, data: SeccompData): number {
  const packet = Buffer.alloc(64); // struct seccomp_data
  packet.writeInt32LE(data.nr, 0);
  packet.writeUInt32LE(data.arch, 4);
  (data.args ?? []).forEach((arg, i) => packet.writeBigUInt64LE(arg, 16 + 8 * i));
  const count = program.length / 8;
  let a = 0;
  for (let pc = 0; pc < count; ) {
    const code = program.readUInt16LE(pc * 8);
    const jt = program.readUInt8(pc * 8 + 2);
    const jf = program.readUInt8(pc * 8 + 3);
    const k = program.readUInt32LE(pc * 8 + 4);
    const branch = (taken: boolean) => (pc += 1 + (taken ? jt : jf));
    switch (code) {
      case 0x20: // BPF_LD | BPF_W | BPF_ABS
        if (k % 4 !== 0 || k + 4 > 64) throw new Error(`load outside seccomp_data at ${pc}`);
        a = packet.readUInt32LE(k);
        pc += 1;
        break;
      case 0x00:
        a = k;
        pc += 1;
        break; // BPF_LD | BPF_IMM
      case 0x54:
        a = (a & k) >>> 0;
        pc += 1;
        break; // BPF_ALU | BPF_AND | BPF_K
      case 0x05:
        pc += 1 + k;
        break; // BPF_JMP | BPF_JA
      case 0x15:
        branch(a === k);
        break; // JEQ K
      case 0x25:
        branch(a > k);
        break; // JGT K
      case 0x35:
        branch(a >= k);
        break; // JGE K
      case 0x45:
        branch((a & k) !== 0);
        break; // JSET K
      case 0x06:
        return k; // BPF_RET | BPF_K
      default:
        throw new Error(`unknown BPF opcode 0x${code.toString(16)} at ${pc}`);
    }
  }
  throw new Error('the program ran off its end without returning');
}

test('the program is 55 instructions on x64 and 49 on arm64', (t) => {
  // x64: arch load+check, nr load, x32 check, 29 listed syscalls, default allow,
  // 3 mode-argument checks of 2, the socket check (load + 3 families), the
  // socketpair check (load, AF_UNIX, load, and, 2 types), 5 returns.
  // arm64: no x32 check, 24 listed.
  t.is(buildSeccompFilter('x64').length, 55 * 8);
  t.is(buildSeccompFilter('arm64').length, 49 * 8);
});

test('every jump lands inside the program and the last instruction returns', (t) => {
  for (const arch of ['x64', 'arm64']) {
    const program = buildSeccompFilter(arch);
    const count = program.length / 8;
    for (let pc = 0; pc < count; pc += 1) {
      const code = program.readUInt16LE(pc * 8);
      if ((code & 0x07) !== 0x05) continue; // BPF_JMP class
      if (code === 0x05) {
        t.true(pc + 1 + program.readUInt32LE(pc * 8 + 4) < count, `${arch}: BPF_JA at ${pc} leaves the program`);
        continue;
      }
      const jt = program.readUInt8(pc * 8 + 2);
      const jf = program.readUInt8(pc * 8 + 3);
      t.true(pc + 1 + jt < count && pc + 1 + jf < count, `${arch}: jump at ${pc} leaves the program`);
    }
    t.is(program.readUInt16LE((count - 1) * 8), 0x06, `${arch}: last instruction is not BPF_RET|BPF_K`);
  }
});

test('the default architecture is the one node runs on', (t) => {
  t.deepEqual(buildSeccompFilter(), buildSeccompFilter(process.arch));
});

test('an architecture without a syscall table is refused with ZB_CONFINEMENT_UNAVAILABLE', (t) => {
  for (const arch of ['ia32', 'arm', 'riscv64', 'constructor', '']) {
    const error = t.throws(() => buildSeccompFilter(arch));
    t.is((error as { code?: string }).code, 'ZB_CONFINEMENT_UNAVAILABLE', arch);
  }
});

const S_IFREG = 0o100000n;
const O_NONBLOCK_APPEND = 0o6000n; // flags that share their bits with S_ISUID|S_ISGID: the flags argument must not be read as a mode

const decides = test.macro({
  exec(t, arch: 'x64' | 'arm64', data: SeccompData, expected: number) {
    t.is(runFilter(buildSeccompFilter(arch), data).toString(16), expected.toString(16));
  },
  title: (title = '') => title,
});

const x64 = (nr: number, ...args: bigint[]): SeccompData => ({ arch: AUDIT_X86_64, nr, args });
const arm64 = (nr: number, ...args: bigint[]): SeccompData => ({ arch: AUDIT_AARCH64, nr, args });

// x86_64 (numbers from arch/x86/entry/syscalls/syscall_64.tbl)
test('x64: an i386 syscall (int 0x80) is killed', decides, 'x64', { arch: AUDIT_I386, nr: 15, args: [0n, 0o4755n] }, KILL);
test('x64: an aarch64 arch value is killed', decides, 'x64', { arch: AUDIT_AARCH64, nr: 39 }, KILL);
test('x64: an x32 chmod is killed', decides, 'x64', x64(0x40000000 + 90, 0n, 0o755n), KILL);
test('x64: an x32 getpid is killed', decides, 'x64', x64(0x40000000 + 39), KILL);
test('x64: chmod 4755 is EPERM', decides, 'x64', x64(90, 0x7ffd0000n, 0o4755n), EPERM);
test('x64: chmod 2755 is EPERM', decides, 'x64', x64(90, 0x7ffd0000n, 0o2755n), EPERM);
test('x64: chmod 755 is allowed', decides, 'x64', x64(90, 0x7ffd0000n, 0o755n), ALLOW);
test('x64: chmod 1777 (sticky) is allowed', decides, 'x64', x64(90, 0x7ffd0000n, 0o1777n), ALLOW);
test('x64: chmod with garbage in the high word and 0755 below is allowed', decides, 'x64', x64(90, 0n, 0xffffffff_000001edn), ALLOW);
test('x64: chmod with garbage in the high word and S_ISUID below is EPERM', decides, 'x64', x64(90, 0n, 0x1_00000800n), EPERM);
test('x64: fchmod 6755 is EPERM', decides, 'x64', x64(91, 3n, 0o6755n), EPERM);
test('x64: fchmodat 4755 is EPERM', decides, 'x64', x64(268, -100n & 0xffffffffffffffffn, 0x800n, 0o4755n), EPERM);
test('x64: fchmodat reads the mode, not the path pointer', decides, 'x64', x64(268, 3n, 0x800n, 0o644n), ALLOW);
test('x64: fchmodat2 2700 is EPERM', decides, 'x64', x64(452, 3n, 0n, 0o2700n, 0n), EPERM);
test('x64: open creating 4755 is EPERM', decides, 'x64', x64(2, 0n, 0o101n, 0o4755n), EPERM);
test('x64: open O_NONBLOCK|O_APPEND without a mode is allowed', decides, 'x64', x64(2, 0n, O_NONBLOCK_APPEND, 0n), ALLOW);
test('x64: creat 4755 is EPERM', decides, 'x64', x64(85, 0n, 0o4755n), EPERM);
test('x64: openat creating 4755 is EPERM', decides, 'x64', x64(257, 3n, 0n, 0o101n, 0o4755n), EPERM);
test('x64: openat O_NONBLOCK|O_APPEND with mode 644 is allowed', decides, 'x64', x64(257, 3n, 0n, O_NONBLOCK_APPEND, 0o644n), ALLOW);
test('x64: mkdir 2755 is EPERM', decides, 'x64', x64(83, 0n, 0o2755n), EPERM);
test('x64: mkdir 755 is allowed', decides, 'x64', x64(83, 0n, 0o755n), ALLOW);
test('x64: mkdirat 2755 is EPERM', decides, 'x64', x64(258, 3n, 0n, 0o2755n), EPERM);
test('x64: mknod of a setuid regular file is EPERM', decides, 'x64', x64(133, 0n, S_IFREG | 0o4755n, 0n), EPERM);
test('x64: mknod of a fifo is allowed', decides, 'x64', x64(133, 0n, 0o010644n, 0n), ALLOW);
test('x64: mknodat of a setgid regular file is EPERM', decides, 'x64', x64(259, 3n, 0n, S_IFREG | 0o2755n, 0n), EPERM);
test('x64: openat2 is ENOSYS', decides, 'x64', x64(437), ENOSYS);
test('x64: io_uring_setup is ENOSYS', decides, 'x64', x64(425), ENOSYS);
test('x64: io_uring_enter is ENOSYS', decides, 'x64', x64(426), ENOSYS);
test('x64: io_uring_register is ENOSYS', decides, 'x64', x64(427), ENOSYS);
test('x64: mq_open is ENOSYS', decides, 'x64', x64(240, 0x7ffd0000n, 0o102n, 0o600n, 0n), ENOSYS);
test('x64: mq_unlink is ENOSYS', decides, 'x64', x64(241, 0x7ffd0000n), ENOSYS);
test('x64: mq_timedsend is ENOSYS', decides, 'x64', x64(242, 3n), ENOSYS);
test('x64: mq_timedreceive is ENOSYS', decides, 'x64', x64(243, 3n), ENOSYS);
test('x64: mq_notify is ENOSYS', decides, 'x64', x64(244, 3n), ENOSYS);
test('x64: mq_getsetattr is ENOSYS', decides, 'x64', x64(245, 3n), ENOSYS);
test('x64: 246 (kexec_load, after the mq range) is not listed', decides, 'x64', x64(246), ALLOW);
test('x64: keyctl is EPERM', decides, 'x64', x64(250), EPERM);
test('x64: add_key is EPERM', decides, 'x64', x64(248), EPERM);
test('x64: request_key is EPERM', decides, 'x64', x64(249), EPERM);
test('x64: bpf is EPERM', decides, 'x64', x64(321), EPERM);
test('x64: perf_event_open is EPERM', decides, 'x64', x64(298), EPERM);
test('x64: userfaultfd is EPERM', decides, 'x64', x64(323), EPERM);
test('x64: read is allowed', decides, 'x64', x64(0, 0n, 0n, 0o4000n), ALLOW);
test('x64: ptrace is allowed', decides, 'x64', x64(101), ALLOW);
test('x64: chown is allowed (it needs CAP_CHOWN)', decides, 'x64', x64(92), ALLOW);
test('x64: execve is allowed', decides, 'x64', x64(59), ALLOW);

// arm64 (numbers from include/uapi/asm-generic/unistd.h)
test('arm64: an x86_64 arch value is killed', decides, 'arm64', { arch: AUDIT_X86_64, nr: 53, args: [0n, 0n, 0o755n] }, KILL);
test('arm64: fchmod 4755 is EPERM', decides, 'arm64', arm64(52, 3n, 0o4755n), EPERM);
test('arm64: fchmodat 2755 is EPERM', decides, 'arm64', arm64(53, 3n, 0n, 0o2755n), EPERM);
test('arm64: fchmodat 755 is allowed', decides, 'arm64', arm64(53, 3n, 0x800n, 0o755n), ALLOW);
test('arm64: fchmodat2 4000 is EPERM', decides, 'arm64', arm64(452, 3n, 0n, 0o4000n, 0n), EPERM);
test('arm64: openat creating 4755 is EPERM', decides, 'arm64', arm64(56, 3n, 0n, 0o101n, 0o4755n), EPERM);
test('arm64: openat O_NONBLOCK|O_APPEND is allowed', decides, 'arm64', arm64(56, 3n, 0n, O_NONBLOCK_APPEND, 0n), ALLOW);
test('arm64: mkdirat 2755 is EPERM', decides, 'arm64', arm64(34, 3n, 0n, 0o2755n), EPERM);
test('arm64: mknodat of a setuid regular file is EPERM', decides, 'arm64', arm64(33, 3n, 0n, S_IFREG | 0o4755n, 0n), EPERM);
test('arm64: openat2 is ENOSYS', decides, 'arm64', arm64(437), ENOSYS);
test('arm64: io_uring_setup is ENOSYS', decides, 'arm64', arm64(425), ENOSYS);
test('arm64: io_uring_enter is ENOSYS', decides, 'arm64', arm64(426), ENOSYS);
test('arm64: io_uring_register is ENOSYS', decides, 'arm64', arm64(427), ENOSYS);
test('arm64: mq_open is ENOSYS', decides, 'arm64', arm64(180, 0x7ffd0000n, 0o102n, 0o600n, 0n), ENOSYS);
test('arm64: mq_unlink is ENOSYS', decides, 'arm64', arm64(181, 0x7ffd0000n), ENOSYS);
test('arm64: mq_timedsend is ENOSYS', decides, 'arm64', arm64(182, 3n), ENOSYS);
test('arm64: mq_timedreceive is ENOSYS', decides, 'arm64', arm64(183, 3n), ENOSYS);
test('arm64: mq_notify is ENOSYS', decides, 'arm64', arm64(184, 3n), ENOSYS);
test('arm64: mq_getsetattr is ENOSYS', decides, 'arm64', arm64(185, 3n), ENOSYS);
test('arm64: 240 is rt_tgsigqueueinfo there, not mq_open, and is allowed', decides, 'arm64', arm64(240), ALLOW);
test('arm64: keyctl is EPERM', decides, 'arm64', arm64(219), EPERM);
test('arm64: add_key is EPERM', decides, 'arm64', arm64(217), EPERM);
test('arm64: request_key is EPERM', decides, 'arm64', arm64(218), EPERM);
test('arm64: bpf is EPERM', decides, 'arm64', arm64(280), EPERM);
test('arm64: perf_event_open is EPERM', decides, 'arm64', arm64(241), EPERM);
test('arm64: userfaultfd is EPERM', decides, 'arm64', arm64(282), EPERM);
test('arm64: 90 is capget there, not chmod, and is allowed', decides, 'arm64', arm64(90, 0n, 0o4755n), ALLOW);
test('arm64: 83 is fdatasync there, not mkdir, and is allowed', decides, 'arm64', arm64(83, 0n, 0o2755n), ALLOW);
test('arm64: ptrace is allowed', decides, 'arm64', arm64(117), ALLOW);
test('arm64: read is allowed', decides, 'arm64', arm64(63, 0n, 0n, 0o4000n), ALLOW);

// socket and socketpair, on both arches. Families from linux/socket.h, types from linux/net.h.
const AF = { UNSPEC: 0n, UNIX: 1n, INET: 2n, AX25: 3n, KEY: 15n, NETLINK: 16n, PACKET: 17n, BLUETOOTH: 31n, ALG: 38n, VSOCK: 40n, MAX: 46n, INET6: 10n };
const SOCK = { STREAM: 1n, DGRAM: 2n, RAW: 3n, RDM: 4n, SEQPACKET: 5n, CLOEXEC: 0o2000000n, NONBLOCK: 0o4000n };
const FLAGGED = SOCK.CLOEXEC | SOCK.NONBLOCK;
const HIGH_GARBAGE = 0xdeadbeef_00000000n;
const SOCKET_NR = { x64: 41, arm64: 198 };
const SOCKETPAIR_NR = { x64: 53, arm64: 199 };

interface SocketCase {
  readonly title: string;
  readonly family: bigint;
  readonly type: bigint;
  readonly expected: number;
}

const socketCases: readonly SocketCase[] = [
  { title: 'AF_INET stream is allowed', family: AF.INET, type: SOCK.STREAM, expected: ALLOW },
  { title: 'AF_INET dgram, close-on-exec and non-blocking, is allowed', family: AF.INET, type: SOCK.DGRAM | FLAGGED, expected: ALLOW },
  { title: 'AF_INET6 stream is allowed', family: AF.INET6, type: SOCK.STREAM, expected: ALLOW },
  { title: 'AF_NETLINK raw is allowed', family: AF.NETLINK, type: SOCK.RAW | SOCK.CLOEXEC, expected: ALLOW },
  { title: 'AF_INET with garbage in the high word is allowed (the kernel reads an int)', family: HIGH_GARBAGE | AF.INET, type: SOCK.STREAM, expected: ALLOW },
  { title: 'AF_INET with AF_UNIX in the high word is allowed', family: (AF.UNIX << 32n) | AF.INET, type: SOCK.STREAM, expected: ALLOW },
  { title: 'AF_UNIX stream is EAFNOSUPPORT', family: AF.UNIX, type: SOCK.STREAM, expected: EAFNOSUPPORT },
  { title: 'AF_UNIX stream, close-on-exec and non-blocking, is EAFNOSUPPORT', family: AF.UNIX, type: SOCK.STREAM | FLAGGED, expected: EAFNOSUPPORT },
  { title: 'AF_UNIX dgram is EAFNOSUPPORT', family: AF.UNIX, type: SOCK.DGRAM, expected: EAFNOSUPPORT },
  { title: 'AF_UNIX seqpacket is EAFNOSUPPORT', family: AF.UNIX, type: SOCK.SEQPACKET, expected: EAFNOSUPPORT },
  { title: 'AF_UNIX with AF_INET in the high word is EAFNOSUPPORT', family: (AF.INET << 32n) | AF.UNIX, type: SOCK.STREAM, expected: EAFNOSUPPORT },
  { title: 'AF_UNIX with garbage in the high word is EAFNOSUPPORT', family: HIGH_GARBAGE | AF.UNIX, type: SOCK.STREAM, expected: EAFNOSUPPORT },
  { title: 'AF_VSOCK is EAFNOSUPPORT', family: AF.VSOCK, type: SOCK.STREAM, expected: EAFNOSUPPORT },
  { title: 'AF_ALG is EAFNOSUPPORT', family: AF.ALG, type: SOCK.SEQPACKET, expected: EAFNOSUPPORT },
  { title: 'AF_PACKET is EAFNOSUPPORT', family: AF.PACKET, type: SOCK.RAW, expected: EAFNOSUPPORT },
  { title: 'AF_BLUETOOTH is EAFNOSUPPORT', family: AF.BLUETOOTH, type: SOCK.STREAM, expected: EAFNOSUPPORT },
  { title: 'AF_KEY is EAFNOSUPPORT', family: AF.KEY, type: SOCK.RAW, expected: EAFNOSUPPORT },
  { title: 'AF_AX25 (bits of AF_INET and AF_UNIX) is EAFNOSUPPORT', family: AF.AX25, type: SOCK.STREAM, expected: EAFNOSUPPORT },
  { title: 'AF_UNSPEC is EAFNOSUPPORT', family: AF.UNSPEC, type: SOCK.STREAM, expected: EAFNOSUPPORT },
  { title: 'a family the kernel does not know (AF_MAX) is EAFNOSUPPORT', family: AF.MAX, type: SOCK.STREAM, expected: EAFNOSUPPORT },
  { title: 'family -1 is EAFNOSUPPORT', family: 0xffffffffn, type: SOCK.STREAM, expected: EAFNOSUPPORT },
  { title: 'AF_INET + 256 is EAFNOSUPPORT', family: 0x102n, type: SOCK.STREAM, expected: EAFNOSUPPORT },
];

const socketpairCases: readonly SocketCase[] = [
  { title: 'AF_UNIX stream is allowed', family: AF.UNIX, type: SOCK.STREAM, expected: ALLOW },
  { title: 'AF_UNIX stream, close-on-exec (libuv), is allowed', family: AF.UNIX, type: SOCK.STREAM | SOCK.CLOEXEC, expected: ALLOW },
  { title: 'AF_UNIX seqpacket is allowed', family: AF.UNIX, type: SOCK.SEQPACKET, expected: ALLOW },
  { title: 'AF_UNIX seqpacket, close-on-exec and non-blocking, is allowed', family: AF.UNIX, type: SOCK.SEQPACKET | FLAGGED, expected: ALLOW },
  { title: 'AF_UNIX stream with garbage in the high words is allowed', family: HIGH_GARBAGE | AF.UNIX, type: HIGH_GARBAGE | SOCK.STREAM, expected: ALLOW },
  { title: 'AF_UNIX dgram is EPERM', family: AF.UNIX, type: SOCK.DGRAM, expected: EPERM },
  { title: 'AF_UNIX dgram, close-on-exec and non-blocking, is EPERM', family: AF.UNIX, type: SOCK.DGRAM | FLAGGED, expected: EPERM },
  { title: 'AF_UNIX dgram with SOCK_STREAM in the high word is EPERM', family: AF.UNIX, type: (SOCK.STREAM << 32n) | SOCK.DGRAM, expected: EPERM },
  { title: 'AF_UNIX raw (which the kernel makes dgram) is EPERM', family: AF.UNIX, type: SOCK.RAW, expected: EPERM },
  { title: 'AF_UNIX rdm is EPERM', family: AF.UNIX, type: SOCK.RDM, expected: EPERM },
  { title: 'AF_UNIX type 0 is EPERM', family: AF.UNIX, type: 0n, expected: EPERM },
  { title: 'AF_INET stream is EAFNOSUPPORT', family: AF.INET, type: SOCK.STREAM, expected: EAFNOSUPPORT },
  { title: 'AF_INET6 stream is EAFNOSUPPORT', family: AF.INET6, type: SOCK.STREAM, expected: EAFNOSUPPORT },
  { title: 'AF_NETLINK raw is EAFNOSUPPORT', family: AF.NETLINK, type: SOCK.RAW, expected: EAFNOSUPPORT },
  { title: 'AF_VSOCK stream is EAFNOSUPPORT', family: AF.VSOCK, type: SOCK.STREAM, expected: EAFNOSUPPORT },
  { title: 'AF_ALG seqpacket is EAFNOSUPPORT', family: AF.ALG, type: SOCK.SEQPACKET, expected: EAFNOSUPPORT },
  { title: 'AF_INET with AF_UNIX in the high word is EAFNOSUPPORT', family: (AF.UNIX << 32n) | AF.INET, type: SOCK.STREAM, expected: EAFNOSUPPORT },
  { title: 'family -1 is EAFNOSUPPORT', family: 0xffffffffn, type: SOCK.STREAM, expected: EAFNOSUPPORT },
];

for (const arch of ['x64', 'arm64'] as const) {
  const call = arch === 'x64' ? x64 : arm64;
  for (const c of socketCases) test(`${arch}: socket ${c.title}`, decides, arch, call(SOCKET_NR[arch], c.family, c.type, 0n), c.expected);
  for (const c of socketpairCases) test(`${arch}: socketpair ${c.title}`, decides, arch, call(SOCKETPAIR_NR[arch], c.family, c.type, 0n, 0x7ffd0000n), c.expected);
}
test('x64: an x32 socket(AF_UNIX) is killed', decides, 'x64', x64(0x40000000 + 41, AF.UNIX, SOCK.STREAM, 0n), KILL);
test('x64: 198 is lremovexattr there, not socket, and is allowed', decides, 'x64', x64(198, AF.UNIX, SOCK.STREAM), ALLOW);
test('arm64: 41 is pivot_root there, not socket, and is allowed', decides, 'arm64', arm64(41, AF.UNIX, SOCK.STREAM), ALLOW);
test('arm64: 53 is fchmodat there, not socketpair (a mode of 0 is allowed)', decides, 'arm64', arm64(53, AF.UNIX, SOCK.DGRAM, 0n), ALLOW);

// ---- Real bwrap, on this machine's architecture --------------------------------

interface SandboxRun {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A fresh empty directory to bind into the sandbox; what the sandbox creates there is owned by the test's user (root here). */
function freshDir(t: ExecutionContext): string {
  return realpathSync(tempDir(t, 'zb-seccomp-'));
}

/**
 * Runs `sh -c script` in a minimal bwrap sandbox with `dir` bound read-write,
 * each of `readOnly` bound read-only and, when given, the filter on fd 3.
 * Rejects if bwrap cannot be spawned.
 */
async function runInSandbox(t: ExecutionContext, dir: string, script: string, filter: Buffer | undefined, readOnly: readonly string[] = []): Promise<SandboxRun> {
  let filterFd: number | undefined;
  if (filter !== undefined) {
    const filterFile = path.join(tempDir(t, 'zb-seccomp-filter-'), 'filter.bpf');
    writeFileSync(filterFile, filter);
    filterFd = openSync(filterFile, 'r');
  }
  const args = [
    '--unshare-user',
    '--uid',
    '65534',
    '--gid',
    '65534',
    '--cap-drop',
    'ALL',
    '--disable-userns',
    '--unshare-pid',
    '--unshare-net',
    '--die-with-parent',
    '--ro-bind',
    '/usr',
    '/usr',
    '--symlink',
    'usr/bin',
    '/bin',
    '--symlink',
    'usr/lib',
    '/lib',
    '--symlink',
    'usr/lib64',
    '/lib64',
    '--proc',
    '/proc',
    '--remount-ro',
    '/proc',
    '--dev',
    '/dev',
    '--tmpfs',
    '/tmp',
    '--bind',
    dir,
    dir,
    ...readOnly.flatMap((bound) => ['--ro-bind', bound, bound]),
    '--chdir',
    dir,
    ...(filterFd === undefined ? [] : ['--seccomp', '3']),
    '/bin/sh',
    '-c',
    `umask 022; ${script}`,
  ];
  try {
    const child = spawn('/usr/bin/bwrap', args, {
      stdio: ['ignore', 'pipe', 'pipe', filterFd ?? 'ignore'],
      env: { PATH: '/usr/bin:/bin', HOME: dir, LANG: 'C', LC_ALL: 'C' },
    });
    let stdout = '';
    let stderr = '';
    if (child.stdout === null || child.stderr === null) throw new Error('spawn gave no stdout/stderr pipes');
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const [exitCode, signal] = (await once(child, 'close')) as [number | null, NodeJS.Signals | null];
    return { exitCode, signal, stdout, stderr };
  } finally {
    if (filterFd !== undefined) closeSync(filterFd);
  }
}

const PYTHON = '/usr/bin/python3';

interface SpecialModeCase {
  /** Shell commands run first, to make the file to change. */
  readonly setup: string;
  readonly command: string;
  /** The file the command tries to give S_ISUID or S_ISGID, relative to the directory. */
  readonly target: string;
  /** The special bits the target has when the same command runs without the filter. */
  readonly unfilteredBits: number;
}

const specialModeDenied = test.macro({
  async exec(t, c: SpecialModeCase) {
    // "exit=" is printed only from inside a sandbox that started, so a bwrap failure fails these checks.
    const script = `${c.setup}; ${c.command}; echo "exit=$?"`;
    const filtered = freshDir(t);
    const run = await runInSandbox(t, filtered, script, buildSeccompFilter());
    t.regex(run.stdout, /exit=[1-9]/, run.stderr);
    t.regex(run.stderr, /Operation not permitted/);
    const target = path.join(filtered, c.target);
    if (existsSync(target)) t.is(statSync(target).mode & 0o6000, 0, 'the host file has no setuid/setgid bit');

    // The same command without the filter succeeds, so this test can fail.
    const unfiltered = freshDir(t);
    const control = await runInSandbox(t, unfiltered, script, undefined);
    t.regex(control.stdout, /exit=0/, control.stderr);
    t.is(statSync(path.join(unfiltered, c.target)).mode & 0o6000, c.unfilteredBits);
  },
  title: (title = '') => title,
});

const copyTrue = 'cp /usr/bin/true prog';
test('sandbox: chmod u+s is EPERM', specialModeDenied, { setup: copyTrue, command: 'chmod u+s prog', target: 'prog', unfilteredBits: 0o4000 });
test('sandbox: chmod g+s is EPERM', specialModeDenied, { setup: copyTrue, command: 'chmod g+s prog', target: 'prog', unfilteredBits: 0o2000 });
test('sandbox: chmod 4755 is EPERM', specialModeDenied, { setup: copyTrue, command: 'chmod 4755 prog', target: 'prog', unfilteredBits: 0o4000 });
test('sandbox: install -m 4755 is EPERM', specialModeDenied, { setup: copyTrue, command: 'install -m 4755 prog installed', target: 'installed', unfilteredBits: 0o4000 });
test('sandbox: python os.open(O_CREAT, 0o4755) is EPERM', specialModeDenied, {
  setup: ':',
  command: `${PYTHON} -c 'import os; os.open("created", os.O_CREAT | os.O_WRONLY, 0o4755)'`,
  target: 'created',
  unfilteredBits: 0o4000,
});
// mkdir(2) drops S_ISGID from its mode argument, so unfiltered the directory has no
// setgid bit either; the rule is strict on purpose and this pins that it applies.
test('sandbox: python os.mkdir(d, 0o2755) is EPERM', specialModeDenied, {
  setup: ':',
  command: `${PYTHON} -c 'import os; os.mkdir("made", 0o2755)'`,
  target: 'made',
  unfilteredBits: 0,
});

test('sandbox: ordinary file work still succeeds under the filter', async (t) => {
  const dir = freshDir(t);
  const script = [
    'cp /usr/bin/true prog && chmod 700 prog && chmod 755 prog',
    'echo text > notes && chmod +x notes',
    'mkdir sub && cp notes sub/copy',
    `${PYTHON} -c 'import os; os.close(os.open("plain", os.O_CREAT | os.O_WRONLY, 0o644))'`,
    'git init -q repo && cd repo && echo hi > a && git add a && git -c user.name=a -c user.email=b commit -q -m first && git rev-list --count HEAD',
  ].join(' && ');
  const run = await runInSandbox(t, dir, `${script}; echo "exit=$?"`, buildSeccompFilter());
  t.is(run.stdout, '1\nexit=0\n', run.stderr);
  t.is(statSync(path.join(dir, 'prog')).mode & 0o7777, 0o755);
  t.is(statSync(path.join(dir, 'notes')).mode & 0o7777, 0o755);
  t.is(readFileSync(path.join(dir, 'sub', 'copy'), 'utf8'), 'text\n');
  t.is(statSync(path.join(dir, 'plain')).mode & 0o7777, 0o644);
});

// Syscall numbers for the python probes, written out per arch from the kernel tables.
const PROBE_NUMBERS: Readonly<Record<string, { keyctl: number; openat2: number; ioUringSetup: number; mqOpen: number; mqUnlink: number }>> = {
  x64: { keyctl: 250, openat2: 437, ioUringSetup: 425, mqOpen: 240, mqUnlink: 241 },
  arm64: { keyctl: 219, openat2: 437, ioUringSetup: 425, mqOpen: 180, mqUnlink: 181 },
};

/** Python that makes one raw syscall and prints "result errno". */
function syscallProbe(call: string): string {
  const numbers = PROBE_NUMBERS[process.arch];
  if (numbers === undefined) throw new Error(`no syscall numbers for ${process.arch} in this test`);
  const body = [
    'import ctypes',
    'libc = ctypes.CDLL(None, use_errno=True)',
    `nr = ${JSON.stringify(numbers)}`,
    'ctypes.set_errno(0)',
    `r = ${call}`,
    'print(r, ctypes.get_errno() if r < 0 else 0, flush=True)',
  ].join('\n');
  return `${PYTHON} -c '${body}'`;
}

const probe = test.macro({
  async exec(t, call: string, filteredOutput: string, unfiltered: (result: number, errno: number) => boolean) {
    const filtered = await runInSandbox(t, freshDir(t), syscallProbe(call), buildSeccompFilter());
    t.is(filtered.stdout, filteredOutput, filtered.stderr);
    const control = await runInSandbox(t, freshDir(t), syscallProbe(call), undefined);
    const [result = NaN, errno = NaN] = control.stdout.trim().split(' ').map(Number);
    t.true(unfiltered(result, errno), `unfiltered: ${control.stdout} ${control.stderr}`);
  },
  title: (title = '') => title,
});

// keyctl(KEYCTL_GET_KEYRING_ID, KEY_SPEC_SESSION_KEYRING, 0): unfiltered it returns the inherited session keyring.
test('sandbox: keyctl is EPERM', probe, 'libc.syscall(nr["keyctl"], 0, -3, 0)', '-1 1\n', (result) => result > 0);
// openat2(AT_FDCWD, "/usr", &{0, 0, 0}, 24)
test('sandbox: openat2 is ENOSYS', probe, 'libc.syscall(nr["openat2"], -100, b"/usr", (ctypes.c_uint64 * 3)(), 24)', '-1 38\n', (result) => result >= 0);
// io_uring_setup(1, &params): unfiltered a ring fd, or EPERM where the host disabled io_uring; never ENOSYS.
test('sandbox: io_uring_setup is ENOSYS', probe, 'libc.syscall(nr["ioUringSetup"], 1, ctypes.create_string_buffer(120))', '-1 38\n', (_result, errno) => errno !== 38);

// mq_open("zb-seccomp-probe", O_CREAT|O_RDWR, 0600, NULL), then mq_unlink of the same name (the sandbox has its own
// IPC namespace, so the unfiltered queue is gone with it anyway). Unfiltered the open gives a descriptor.
test(
  'sandbox: mq_open is ENOSYS (a POSIX queue would outlive the command)',
  probe,
  '(lambda fd: (libc.syscall(nr["mqUnlink"], b"zb-seccomp-probe"), fd)[1])(libc.syscall(nr["mqOpen"], b"zb-seccomp-probe", 0o102, 0o600, None))',
  '-1 38\n',
  (result) => result >= 0,
);

if (process.arch === 'x64') {
  test('sandbox: an x32 syscall kills the process (unfiltered it only fails with ENOSYS)', async (t) => {
    const call = 'libc.syscall(0x40000000 + 39)'; // x32 getpid
    const filtered = await runInSandbox(t, freshDir(t), `${syscallProbe(call)}; echo "exit=$?"`, buildSeccompFilter());
    t.is(filtered.stdout, 'exit=159\n', filtered.stderr); // 128 + SIGSYS
    const control = await runInSandbox(t, freshDir(t), `${syscallProbe(call)}; echo "exit=$?"`, undefined);
    t.regex(control.stdout, /exit=0\n$/, control.stderr);
  });
}

// ---- Sockets under real bwrap ----------------------------------------------------

/** `python3 -c body`, quoted for sh; the body must not contain a single quote. */
function python(lines: readonly string[]): string {
  const body = lines.join('\n');
  if (body.includes("'")) throw new Error('python body with a single quote');
  return `${PYTHON} -c '${body}'`;
}

/** Python that runs `attempt` and prints what it printed, or "errno N" when it raised OSError. */
function errnoOf(attempt: readonly string[]): string {
  return python(['import socket', 'try:', ...attempt.map((line) => `    ${line}`), 'except OSError as e:', '    print("errno", e.errno)']);
}

test('sandbox: python socket.socket(AF_UNIX) fails with EAFNOSUPPORT (unfiltered it works)', async (t) => {
  const script = errnoOf(['socket.socket(socket.AF_UNIX)', 'print("created")']);
  const filtered = await runInSandbox(t, freshDir(t), script, buildSeccompFilter());
  t.is(filtered.stdout, 'errno 97\n', filtered.stderr);
  const control = await runInSandbox(t, freshDir(t), script, undefined);
  t.is(control.stdout, 'created\n', control.stderr);
});

test('sandbox: a host unix socket in a read-only bound directory cannot be reached (unfiltered it can)', async (t) => {
  const served = freshDir(t);
  const socketPath = path.join(served, 'host-service.sock');
  let connections = 0;
  const server = createServer((connection) => {
    connections += 1;
    connection.end('host service answered\n');
  });
  server.listen(socketPath);
  await once(server, 'listening');
  t.teardown(() => server.close());
  const script = errnoOf(['s = socket.socket(socket.AF_UNIX)', `s.connect(${JSON.stringify(socketPath)})`, 'print(s.makefile().readline().strip())']);

  const filtered = await runInSandbox(t, freshDir(t), script, buildSeccompFilter(), [served]);
  t.is(filtered.stdout, 'errno 97\n', filtered.stderr);
  t.is(connections, 0);

  // Without the filter the same command reaches the host's server: the read-only bind does not stop it.
  const control = await runInSandbox(t, freshDir(t), script, undefined, [served]);
  t.is(control.stdout, 'host service answered\n', control.stderr);
  t.is(connections, 1);
});

test('sandbox: python socket.socketpair() stream and seqpacket pairs work', async (t) => {
  const script = python([
    'import socket',
    'for kind in (socket.SOCK_STREAM, socket.SOCK_SEQPACKET):',
    '    a, b = socket.socketpair(socket.AF_UNIX, kind)',
    '    a.sendall(b"through the pair")',
    '    print(b.recv(64).decode())',
    'a, b = socket.socketpair()',
    'a.sendall(b"default pair")',
    'print(b.recv(64).decode())',
  ]);
  const run = await runInSandbox(t, freshDir(t), script, buildSeccompFilter());
  t.is(run.stdout, 'through the pair\nthrough the pair\ndefault pair\n', run.stderr);
});

test('sandbox: an AF_UNIX datagram socketpair fails with EPERM (unfiltered it works)', async (t) => {
  const script = errnoOf(['socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)', 'print("paired")']);
  const filtered = await runInSandbox(t, freshDir(t), script, buildSeccompFilter());
  t.is(filtered.stdout, 'errno 1\n', filtered.stderr);
  const control = await runInSandbox(t, freshDir(t), script, undefined);
  t.is(control.stdout, 'paired\n', control.stderr);
});

test('sandbox: a TCP server and client on 127.0.0.1 talk within one command', async (t) => {
  const script = python([
    'import socket',
    'server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)',
    'server.bind(("127.0.0.1", 0))',
    'server.listen(1)',
    'client = socket.create_connection(server.getsockname())',
    'peer, _ = server.accept()',
    'peer.sendall(b"over loopback\\n")',
    'print(client.makefile().readline().strip())',
  ]);
  const run = await runInSandbox(t, freshDir(t), script, buildSeccompFilter());
  t.is(run.stdout, 'over loopback\n', run.stderr);
});

test('sandbox: AF_INET6 and AF_NETLINK sockets can be created', async (t) => {
  const script = python([
    'import socket',
    'socket.socket(socket.AF_INET6, socket.SOCK_DGRAM).close()',
    'socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, socket.NETLINK_ROUTE).close()',
    'print("created")',
  ]);
  const run = await runInSandbox(t, freshDir(t), script, buildSeccompFilter());
  t.is(run.stdout, 'created\n', run.stderr);
});

// libuv gives a child its pipes as socketpair(AF_UNIX, SOCK_STREAM|SOCK_CLOEXEC).
test('sandbox: node spawning a child process with piped output works', async (t) => {
  const node = process.execPath;
  const program = 'const r = require("node:child_process").spawnSync("/bin/sh", ["-c", "echo from the child"], { encoding: "utf8" }); if (r.error) throw r.error; process.stdout.write(r.stdout)';
  const run = await runInSandbox(t, freshDir(t), `${node} -e '${program}'`, buildSeccompFilter(), [path.dirname(node)]);
  t.is(run.stdout, 'from the child\n', run.stderr);
});
