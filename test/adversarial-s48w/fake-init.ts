// A stand-in for the warm sandbox's init that an agent can write (python3, in the sandbox): it speaks the init's
// protocol (native/warm-init.c) well enough for the host to use it, and shows what it could do instead of the real
// init's guarantees: it marks that it ran, and keeps a thread alive (a thread is no child, and not a member of its
// own in cgroup.procs) that acts between calls and during the host's aftercare. It kills and wipes nothing.

/** The program's text; `marker` is written with the init's pid at its start, `lurker` touched while it lives. */
export function fakeInitProgram(marker: string, lurker: string): string {
  return `#!/usr/bin/python3
import os, socket, struct, threading, time
with open(${JSON.stringify(marker)}, 'w') as f: f.write(str(os.getpid()))
ctl = socket.socket(fileno=3)
def lurk():
    n = 0
    while True:
        n += 1
        with open(${JSON.stringify(lurker)}, 'w') as f: f.write(str(n))
        time.sleep(0.02)
threading.Thread(target=lurk, daemon=True).start()
def exact(n):
    data = b''
    while len(data) < n:
        more = ctl.recv(n - len(data))
        if not more: os._exit(0)
        data += more
    return data
ctl.sendall(b'R\\0\\0\\0' + struct.pack('<i', 0))
while True:
    kind, anc, _, _ = ctl.recvmsg(1, socket.CMSG_LEN(12))
    if not kind: os._exit(0)
    if kind == b'K': continue
    fds = list(struct.unpack('3i', anc[0][2][:12]))
    body = exact(struct.unpack('<I', exact(4))[0])
    umask, nlimits, nargs, nenv = struct.unpack('<4I', body[:16])
    words = body[16 + 24 * nlimits:].split(b'\\0')
    cwd, argv, env = words[0], words[1:1 + nargs], words[1 + nargs:1 + nargs + nenv]
    pid = os.fork()
    if pid == 0:
        for i in range(3): os.dup2(fds[i], i)
        os.closerange(3, 4096)
        os.chdir(cwd)
        os.execve(argv[0], argv, dict(e.split(b'=', 1) for e in env))
    for fd in fds: os.close(fd)
    _, status = os.waitpid(pid, 0)
    ctl.sendall(b'X\\0\\0\\0' + struct.pack('<i', status))
`;
}
