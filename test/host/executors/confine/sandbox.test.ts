// The sandbox is the boundary (issue 9 §2): each test shows what a confined
// command cannot do and, where it matters, that the same command does it
// unconfined (so the test can fail). bubblewrap must work here: the fixture
// fails these tests rather than skipping them.
import test from 'ava';
import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { commandEnvironment } from '../../../../src/host/executors/command-environment.js';
import { sandboxWorld } from '../../../fixtures/sandbox-world.js';

test('a confined command cannot read outside the scopes; unconfined, the same command can', async (t) => {
  const world = sandboxWorld(t);
  const command = `cat ${world.secret}/key`;
  t.like(await world.run(command, { confined: false }), { exitCode: 0, stdout: 'top secret' });
  const confined = await world.run(command);
  t.not(confined.exitCode, 0);
  t.is(confined.stdout, '');
});

test('a read scope is readable but not writable; a write scope is both', async (t) => {
  const world = sandboxWorld(t);
  t.like(await world.run(`cat ${world.docs}/guide.md`), { exitCode: 0, stdout: 'read me' });
  const write = await world.run(`echo changed > ${world.docs}/guide.md`);
  t.not(write.exitCode, 0);
  t.regex(write.stderr, /Read-only file system/);
  t.is(readFileSync(path.join(world.docs, 'guide.md'), 'utf8'), 'read me');
  t.like(await world.run('echo made > made.txt && cat made.txt'), { exitCode: 0, stdout: 'made\n' });
  t.is(readFileSync(path.join(world.ws, 'made.txt'), 'utf8'), 'made\n');
});

test('a confined command cannot open a socket, even to this machine', async (t) => {
  const world = sandboxWorld(t);
  const server = createServer((socket) => socket.end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const command = `echo hi > /dev/tcp/127.0.0.1/${(server.address() as AddressInfo).port} && echo connected`;
  t.like(await world.run(command, { confined: false }), { exitCode: 0, stdout: 'connected\n' });
  const confined = await world.run(command);
  t.not(confined.exitCode, 0);
  t.is(confined.stdout, '');
});

test('inside, a process has no capabilities, no_new_privs and an unprivileged uid', async (t) => {
  const world = sandboxWorld(t);
  const status = await world.run("grep -E '^(CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs):' /proc/self/status; id -u");
  t.is(status.exitCode, 0, status.stderr);
  t.is(status.stdout, 'CapInh:\t0000000000000000\nCapPrm:\t0000000000000000\nCapEff:\t0000000000000000\nCapBnd:\t0000000000000000\nCapAmb:\t0000000000000000\nNoNewPrivs:\t1\n65534\n');
});

test('inside, a process cannot make a user namespace: unshare(CLONE_NEWUSER) fails with ENOSPC; unconfined, the same call succeeds', async (t) => {
  const world = sandboxWorld(t);
  // `unshare --user` makes the namespace and writes no uid or gid map, so a read-only /proc cannot be why it fails.
  const command = 'unshare --user true && echo made';
  t.like(await world.run(command, { confined: false }), { exitCode: 0, stdout: 'made\n' });
  const confined = await world.run(command);
  t.not(confined.exitCode, 0);
  t.is(confined.stdout, '');
  // bubblewrap's --disable-userns sets user.max_user_namespaces to 0 in the sandbox's own user namespace, and the
  // kernel answers a namespace over that count with ENOSPC ("No space left on device"); EPERM would mean something else refused it.
  t.regex(confined.stderr, /unshare failed: No space left on device/);
});

test('the seccomp filter is in force: no setuid or setgid file can be made in the workspace', async (t) => {
  const world = sandboxWorld(t);
  const result = await world.run("grep -E '^Seccomp:' /proc/self/status; cp /bin/true ./t && chmod u+s ./t; chmod g+s ./t; stat -c %a ./t");
  t.regex(result.stdout, /^Seccomp:\t2\n755\n$/u);
  t.regex(result.stderr, /Operation not permitted/);
  t.is(statSync(path.join(world.ws, 't')).mode & 0o7777, 0o755);
});

test('mount and umount fail inside, so the read-only binds stay read-only', async (t) => {
  const world = sandboxWorld(t);
  const umount = await world.run(`umount ${world.docs}; echo changed > ${world.docs}/guide.md`);
  t.not(umount.exitCode, 0);
  t.is(readFileSync(path.join(world.docs, 'guide.md'), 'utf8'), 'read me');
  const mount = await world.run(`mount -t tmpfs none ${world.ws}`);
  t.not(mount.exitCode, 0);
  const remount = await world.run(`mount -o remount,rw ${world.docs}`);
  t.not(remount.exitCode, 0);
});

test('open_by_handle_at cannot reach a file outside the scopes', async (t) => {
  const world = sandboxWorld(t);
  // name_to_handle_at on a file in the workspace, then open_by_handle_at with it: needs CAP_DAC_READ_SEARCH.
  const script = [
    'import ctypes, os',
    'libc = ctypes.CDLL(None, use_errno=True)',
    'buf = ctypes.create_string_buffer(8 + 128)',
    'ctypes.memmove(buf, (128).to_bytes(4, "little"), 4)',
    'mount_id = ctypes.c_int()',
    `r = libc.name_to_handle_at(-100, b"${world.ws}/probe.txt", buf, ctypes.byref(mount_id), 0)`,
    'print("name", r)',
    `fd = os.open("${world.ws}", os.O_RDONLY)`,
    'h = libc.open_by_handle_at(fd, buf, 0)',
    'print("open", h, ctypes.get_errno())',
  ].join('\n');
  writeFileSync(path.join(world.ws, 'probe.txt'), 'x');
  writeFileSync(path.join(world.ws, 'probe.py'), script);
  const result = await world.run('/usr/bin/python3 probe.py');
  t.is(result.exitCode, 0, result.stderr);
  t.regex(result.stdout, /^name 0\nopen -1 1\n$/u, 'EPERM (1)');
});

test('setuid programs grant nothing inside, and /etc/shadow is not there to read', async (t) => {
  const world = sandboxWorld(t);
  const su = await world.run("su root -c 'echo PWNED'");
  t.not(su.exitCode, 0);
  t.notRegex(su.stdout, /PWNED/);
  const shadow = await world.run('cat /etc/shadow; cat /etc/gshadow; ls /etc/ssl/private');
  t.not(shadow.exitCode, 0);
  t.is(shadow.stdout, '');
  // What programs need from /etc is there.
  t.like(await world.run('cat /etc/passwd >/dev/null && getent passwd nobody >/dev/null && echo ok'), { exitCode: 0, stdout: 'ok\n' });
});

test("/etc's files are the host's, in a read-only /etc of the sandbox's own: nothing can be written or made there", async (t) => {
  const world = sandboxWorld(t);
  const passwd = await world.run('cat /etc/passwd');
  t.is(passwd.exitCode, 0, passwd.stderr);
  t.is(passwd.stdout, readFileSync('/etc/passwd', 'utf8'));
  const write = await world.run('echo root2:x:0:0::/:/bin/sh >> /etc/passwd; touch /etc/ld.so.preload; mkdir /etc/zotbox-test; ls /etc/ld.so.preload /etc/zotbox-test');
  t.not(write.exitCode, 0);
  t.is(write.stdout, '');
  t.regex(write.stderr, /Read-only file system/u);
  t.is(readFileSync('/etc/passwd', 'utf8'), passwd.stdout);
});

test("bubblewrap's root and /dev are read-only: a command can leave nothing there, while /dev/null, /tmp, HOME, /dev/shm and python semaphores work", async (t) => {
  const world = sandboxWorld(t);
  const result = await world.run(
    'for p in /zz-probe /dev/zz-probe /dev/pts/zz-probe; do touch $p 2>/dev/null && echo "made $p"; done; mkdir /zz-dir 2>/dev/null && echo made-dir; ls -A / /dev | grep -c zz',
  );
  t.is(result.stdout, '0\n', result.stderr);
  // The writable places a command needs are still there.
  const python = [
    'import multiprocessing, os',
    'lock = multiprocessing.Semaphore(1)', // sem_open: a file in /dev/shm
    'lock.acquire(); lock.release()',
    'print("semaphore", sorted(os.listdir("/dev/shm")) == [])',
  ].join('; ');
  const work = await world.run(
    `echo x > /dev/null && echo devnull-ok; echo t > /tmp/t && cat /tmp/t; echo h > "$HOME/h" && cat "$HOME/h"; echo s > /dev/shm/s && cat /dev/shm/s && rm /dev/shm/s; /usr/bin/python3 -c '${python}'`,
  );
  t.is(work.stdout, 'devnull-ok\nt\nh\ns\nsemaphore True\n', work.stderr);
});

test('/proc is read-only inside: kernel settings cannot be written even when zotbox runs as root', async (t) => {
  const world = sandboxWorld(t);
  const before = readFileSync('/proc/sys/kernel/core_pattern', 'utf8');
  const result = await world.run('echo zotbox-was-here > /proc/sys/kernel/core_pattern');
  t.not(result.exitCode, 0);
  t.is(readFileSync('/proc/sys/kernel/core_pattern', 'utf8'), before);
});

test('processes of other runs and of the host are invisible (a PID namespace per command)', async (t) => {
  const world = sandboxWorld(t);
  const result = await world.run('ls /proc | grep -E "^[0-9]+$" | wc -l');
  t.is(result.exitCode, 0);
  t.true(Number(result.stdout.trim()) <= 5, `sees ${result.stdout.trim()} processes`);
  // The host's environment (API keys) is not reachable through /proc: every process inside holds only the command environment.
  const names = await world.run('cat /proc/[0-9]*/environ | tr "\\0" "\\n" | cut -d= -f1 | sort -u');
  const allowed = new Set([...Object.keys(commandEnvironment('/tmp/home')), 'PWD', 'OLDPWD', 'SHLVL', '_']);
  const seen = names.stdout.trim().split('\n');
  t.true(seen.includes('PATH'));
  t.deepEqual(
    seen.filter((name) => !allowed.has(name)),
    [],
  );
});

test('each command gets a private, empty HOME; the agent data directory configures nothing', async (t) => {
  const world = sandboxWorld(t);
  writeFileSync(path.join(world.data, '.curlrc'), 'output = /tmp/stolen\n');
  const first = await world.run('echo "$HOME"; ls -A "$HOME"; echo planted > "$HOME/.wgetrc"');
  t.is(first.stdout, '/tmp/home\n');
  const second = await world.run('ls -A "$HOME"; echo "$XDG_CONFIG_HOME"');
  t.is(second.stdout, '/tmp/home/.config\n');
});

test('the zotbox state directory is masked inside a scope that contains it; the agent data directory stays', async (t) => {
  const world = sandboxWorld(t);
  mkdirSync(path.join(world.state, 'agents', 'other', 'consents'), { recursive: true });
  const layout = { ...world.layout, readRoots: [world.root] };
  const result = await world.run(`ls -A ${world.state} ${world.state}/agents; cat ${world.state}/receipt.key; echo mine > ${world.data}/note.txt && cat ${world.data}/note.txt`, { layout });
  // Only the path down to the agent's own data directory exists inside; the key and other agents do not.
  t.notRegex(result.stdout, /state secret|receipt\.key|other|consents/);
  t.regex(result.stdout, /tester/);
  t.regex(result.stdout, /mine/);
  t.is(readFileSync(path.join(world.data, 'note.txt'), 'utf8'), 'mine\n');
});

test('the state directory is masked in a read or a write scope that contains it when no agent data scope lies inside it', async (t) => {
  const world = sandboxWorld(t);
  const command = `cat ${world.state}/receipt.key; echo; ls -A ${world.state}`;
  // Unconfined, the key and the agents directory are there: the mask is what hides them.
  t.like(await world.run(command, { confined: false }), { stdout: 'state secret\nagents\nreceipt.key\n' });
  const layouts = [
    { readRoots: [world.root], writeRoots: [world.ws], stateDirectory: world.state },
    { readRoots: [world.root], writeRoots: [world.root], stateDirectory: world.state },
  ];
  for (const layout of layouts) {
    const result = await world.run(`${command}; echo planted > ${world.state}/receipt.key`, { layout });
    t.is(result.stdout, '\n', JSON.stringify(layout.writeRoots));
    t.regex(result.stderr, /receipt\.key: No such file or directory/);
  }
  t.is(readFileSync(path.join(world.state, 'receipt.key'), 'utf8'), 'state secret');
});

test('a scope root swapped for a symlink is never mounted: the command is refused', async (t) => {
  const world = sandboxWorld(t);
  const sub = path.join(world.ws, 'sub');
  symlinkSync(world.secret, sub);
  const layout = { ...world.layout, readRoots: [sub], writeRoots: [] };
  const error = await t.throwsAsync(world.run(`cat ${sub}/key`, { layout }));
  t.is((error as { code?: string }).code, 'ZB_CONFINEMENT_BIND_UNSAFE');
});

test('a .git/hooks symlink to a directory outside the scopes exposes nothing, and breaks nothing', async (t) => {
  const world = sandboxWorld(t, ({ ws }) => {
    mkdirSync(path.join(ws, '.git'));
    writeFileSync(path.join(ws, '.git', 'config'), '[core]\n\trepositoryformatversion = 0\n');
  });
  // The attack: hooks made a link to a host directory, hoping zotbox's own bind would mount it.
  symlinkSync(world.secret, path.join(world.ws, '.git', 'hooks'));
  const result = await world.run('grep -r "top secret" .git/hooks/; ls .git/hooks/');
  t.notRegex(result.stdout, /top secret|key/);
  // A dangling one (the target removed) does not break later commands either.
  const dangling = path.join(world.ws, '.git', 'info');
  symlinkSync(path.join(world.root, 'gone'), dangling);
  t.like(await world.run('echo still works'), { exitCode: 0, stdout: 'still works\n' });
});

test('after mv .git .git-old, later commands still run (the sandbox is built per call)', async (t) => {
  const world = sandboxWorld(t, ({ ws }) => {
    mkdirSync(path.join(ws, '.git', 'hooks'), { recursive: true });
    writeFileSync(path.join(ws, '.git', 'config'), '[core]\n\trepositoryformatversion = 0\n');
  });
  await world.run('mv .git .git-old');
  t.like(await world.run('echo next'), { exitCode: 0, stdout: 'next\n' });
  t.like(await world.run('echo and next'), { exitCode: 0, stdout: 'and next\n' });
});

test('a write scope naming a file that does not exist yet never becomes a directory', async (t) => {
  const world = sandboxWorld(t);
  const changelog = path.join(world.ws, 'CHANGELOG.md');
  const layout = { readRoots: [world.ws], writeRoots: [changelog] };
  const result = await world.run('echo "entry" >> CHANGELOG.md', { layout });
  t.not(result.exitCode, 0, 'the file is not there to write: the write tool creates it');
  t.false(existsSync(changelog));
  writeFileSync(changelog, '# Changes\n');
  t.like(await world.run('echo "- entry" >> CHANGELOG.md && echo nope > other.txt', { layout }), { exitCode: 1 });
  t.is(readFileSync(changelog, 'utf8'), '# Changes\n- entry\n');
  t.true(statSync(changelog).isFile());
  t.false(existsSync(path.join(world.ws, 'other.txt')));
});

test("a read scope of / brings neither the host's processes nor its devices", async (t) => {
  const world = sandboxWorld(t);
  const layout = { ...world.layout, readRoots: ['/'] };
  const result = await world.run('ls /proc | grep -cE "^[0-9]+$"; echo x > /dev/null && echo devnull-ok', { layout });
  const [count, devnull] = result.stdout.trim().split('\n');
  t.true(Number(count) <= 5, `sees ${String(count)} processes`);
  t.is(devnull, 'devnull-ok');
});
