// Prototype bench for a warm (reused) sandbox: bwrap started ONCE with zotbox's own plan (prepareSandbox, as the
// bench's floor row) plus --as-pid-1 and the warm init; calls handed to it over SOCK_SEQPACKET with SCM_RIGHTS.
// Rounds: bare bwrap (baseline) | today's confined call (executeBash) | warm call (the design's full host work +
// the hand-off) | warm hand-off only | host work only | today's floor.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, closeSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
const D = '/work/wt/perf-warm-wt/dist';
const { measureRounds, formatTable } = await import(`${D}/bench/harness.js`);
const { prepareSandbox } = await import(`${D}/src/host/executors/confine/sandbox-plan.js`);
const { buildSeccompFilter } = await import(`${D}/src/host/executors/confine/seccomp-filter.js`);
const { verifySandboxMounts } = await import(`${D}/src/host/executors/confine/mount-verification.js`);
const { lockWriteScopes } = await import(`${D}/src/host/executors/confine/scope-lock.js`);
const { recordProtected } = await import(`${D}/src/host/executors/confine/protected-locations.js`);
const { finishGitStateCheck } = await import(`${D}/src/host/executors/confine/git-state-check.js`);
const { resolveConfinement } = await import(`${D}/src/host/executors/confine/mode.js`);
const { createCommandCgroup, detectLimitEnforcement, DEFAULT_COMMAND_LIMITS } = await import(`${D}/src/host/executors/confine/command-limits.js`);
const { commandEnvironment, COMMAND_SEARCH_PATH, TRUSTED_PROGRAM_DIRECTORIES } = await import(`${D}/src/host/executors/command-environment.js`);
const { createCommandIsolation } = await import(`${D}/src/host/executors/confine/command-isolation.js`);
const { executeBash } = await import(`${D}/src/host/executors/bash.js`);
const { compileScopes } = await import(`${D}/src/policy/scopes.js`);
const { decideShellCommand } = await import(`${D}/src/policy/shell-decision.js`);
const fdpass = createRequire(import.meta.url)('./fdpass.node');

const SIZE = `${process.env.DIRS === 'src' ? 'small (src/)' : Number(process.env.DIRS ?? 20000)}${process.env.GIT ? ` + git repo (${process.env.GIT})` : ''}`;
const SAMPLES = Number(process.env.SAMPLES ?? 31);
const scratch = realpathSync(mkdtempSync(path.join(tmpdir(), 'zb-warm-')));
const ws = path.join(scratch, 'ws');
function makeTree(root, count) {
  mkdirSync(root);
  const queue = [root];
  let made = 0;
  for (let head = 0; made < count; head++) {
    const parent = queue[head];
    for (let i = 0; i < 10 && made < count; i++, made++) {
      const d = path.join(parent, `d${i}`);
      mkdirSync(d);
      writeFileSync(path.join(d, 'index.js'), 'export {};\n');
      queue.push(d);
    }
  }
}
if (process.env.DIRS === 'src') (await import('node:fs')).cpSync('/work/wt/perf-warm-wt/src', ws, { recursive: true });
else makeTree(ws, SIZE);
if (process.env.GIT) {
  // A repository with a hook that runs a workspace script: the git record and tool-file readers have work to do.
  (await import('node:child_process')).execFileSync('git', ['init', '-q', ws]);
  const parts = process.env.GIT.split(',');
  if (parts.includes('hook')) writeFileSync(path.join(ws, '.git/hooks/pre-commit'), '#!/bin/sh\nsh scripts/check.sh "$@"\n', { mode: 0o755 });
  mkdirSync(path.join(ws, 'scripts'), { recursive: true });
  if (parts.includes('py')) writeFileSync(path.join(ws, 'scripts/check.sh'), 'python3 -m tools.lint\n');
  else writeFileSync(path.join(ws, 'scripts/check.sh'), 'echo ok\n');
  if (parts.includes('envrc')) writeFileSync(path.join(ws, '.envrc'), 'PATH_add bin\n');
}
const layout = { readRoots: [ws], writeRoots: [ws] };
const confinement = resolveConfinement('required');
const bwrap = confinement.bwrap;
const identity = (p) => JSON.stringify([p.args, p.expectations]);

// ---- start the warm sandbox once
const warm = prepareSandbox(layout, { seccomp: true });
const warmIdentity = identity(warm);
const fds = warm.descriptors();
const [hostCtl, childCtl] = fdpass.socketpair();
const helperFd = openSync(new URL('./warm-init', import.meta.url), 'r');
const seccompFd = 4 + fds.length, helperChildFd = seccompFd + 1, infoFd = helperChildFd + 1;
const args = [...warm.args, '--as-pid-1', '--perms', '0555', '--ro-bind-data', String(helperChildFd), '/zotbox-warm-init', '--info-fd', String(infoFd), '--chdir', ws, '--', '/zotbox-warm-init'];
const child = spawn(bwrap, args, { stdio: ['ignore', 'inherit', 'inherit', childCtl, ...fds, 'pipe', helperFd, 'pipe'], detached: true });
child.stdio[seccompFd].on('error', () => {}).end(buildSeccompFilter());
closeSync(childCtl);
closeSync(helperFd);
const ctl = new net.Socket({ fd: hostCtl, readable: true, writable: true });
const replies = [];
let waiter;
let pending = '';
ctl.on('data', (b) => { pending += b; let i; while ((i = pending.search(/[R\n]/)) >= 0) { replies.push(pending.slice(0, i + 1).trim()); pending = pending.slice(i + 1); } waiter?.(); });
const next = () => new Promise((resolve) => { if (replies.length) return resolve(replies.shift()); waiter = () => { waiter = undefined; resolve(replies.shift()); }; });
let info = '';
child.stdio[infoFd].on('data', (b) => (info += b));
const infoEnded = new Promise((r) => child.stdio[infoFd].once('end', r));
console.error('spawned', child.pid);
if ((await next()) !== 'R') throw new Error('no ready byte');
await Promise.race([infoEnded, new Promise((r) => setTimeout(r, 200))]); // bwrap may keep it open in the init
if (!/child-pid/.test(info)) throw new Error(`no info: ${info}`);
const initPid = Number(/"child-pid":\s*([0-9]+)/.exec(info)[1]);
verifySandboxMounts(initPid, warm.expectations);
// one cgroup for the sandbox's life: the init joins once, so no call moves a process (no cgroup.procs write per call)
const enforcement = detectLimitEnforcement();
const cgroup = enforcement.kind === 'rlimit' ? undefined : createCommandCgroup(enforcement, DEFAULT_COMMAND_LIMITS);
cgroup?.join(initPid);
const counterFiles = enforcement.kind === 'cgroup1' ? [path.join(enforcement.parents.pids, readFileSync(`/proc/${initPid}/cgroup`, 'utf8').match(/:pids:(.*)/)[1].replace(/^\//, '').split('/').pop(), 'pids.events')] : [];
console.error(`warm sandbox: bwrap pid ${child.pid}, init ${initPid}, ${fds.length} bind fds, cgroup ${enforcement.kind}, identity ${warmIdentity.length} chars`);

const devnull = openSync('/dev/null', 'r');
const env = commandEnvironment('/tmp/home', {}, warm.drivers, undefined, COMMAND_SEARCH_PATH);
function request(argv, cwd) {
  const envList = Object.entries(env).map(([k, v]) => `${k}=${v}`);
  const header = Buffer.alloc(24);
  header.writeUInt32LE(argv.length, 0);
  header.writeUInt32LE(envList.length, 4);
  header.writeBigUInt64LE(3600n, 8);
  header.writeBigUInt64LE(4n << 30n, 16);
  const body = Buffer.concat([header, Buffer.from([cwd, ...argv, ...envList].map((s) => `${s}\0`).join(''))]);
  const length = Buffer.alloc(4);
  length.writeUInt32LE(body.length, 0);
  return Buffer.concat([length, body]);
}
const REQ = request(['/usr/bin/true'], ws);
/** Hand one call to the warm init: stdin /dev/null, stdout and stderr fresh pipes read as node reads a child's. */
async function handOff(req = REQ, expect = 'X 0') {
  const [outR, outW] = fdpass.pipe();
  const [errR, errW] = fdpass.pipe();
  fdpass.send(hostCtl, req, [devnull, outW, errW]);
  closeSync(outW);
  closeSync(errW);
  const read = (fd) => new Promise((resolve) => { const s = new net.Socket({ fd, readable: true, writable: false }); let n = ''; s.on('data', (b) => (n += b)); s.once('end', () => { s.destroy(); resolve(n); }); });
  const [reply, out, err] = await Promise.all([next(), read(outR), read(errR)]);
  if (reply !== expect) throw new Error(`warm call: ${reply} ${err}`);
  return out;
}
const countersBefore = () => counterFiles.map((f) => readFileSync(f, 'utf8'));
/** The host's work that a warm call keeps: lock, plan (walk, opens, protected set) and its identity, mount re-check, records, aftercare, cgroup counters. */
async function hostWork(inner) {
  const lock = await lockWriteScopes(layout.writeRoots);
  try {
    const plan = prepareSandbox(layout, { seccomp: true });
    try {
      if (identity(plan) !== warmIdentity) throw new Error('plan changed: the warm sandbox would be dropped');
      verifySandboxMounts(initPid, plan.expectations);
      const record = recordProtected(plan.protectedSet, layout.writeRoots);
      const c0 = countersBefore();
      await inner();
      if (countersBefore().join() !== c0.join()) throw new Error('a limit was reached');
      plan.close();
      finishGitStateCheck(layout, plan.inventory, record);
    } catch (e) { plan.close(); throw e; }
  } finally { lock.release(); }
}
function spawnAndWait(file, a) {
  return new Promise((resolve, reject) => { const c = spawn(file, a, { stdio: ['ignore', 'pipe', 'pipe'] }); c.once('error', reject); c.once('close', () => resolve()); });
}
const bare = ['--unshare-user', '--unshare-pid', '--unshare-net', '--ro-bind', '/usr', '/usr', '--symlink', 'usr/bin', '/bin', '--symlink', 'usr/lib', '/lib', '--symlink', 'usr/lib64', '/lib64', '--proc', '/proc', '--dev', '/dev', '--', '/usr/bin/true'];
const scopes = compileScopes({ read: ['${workspace}'], write: ['${workspace}'] }, { workspace: ws, agentData: ws });
const shell = { mode: 'allowlist', allow: ['true'], scopes, searchPath: COMMAND_SEARCH_PATH, trustedDirectories: TRUSTED_PROGRAM_DIRECTORIES };
const decision = decideShellCommand('true', shell);
const isolation = createCommandIsolation(confinement, layout);
function floor() {
  const s = prepareSandbox(layout, { seccomp: true });
  const f = s.descriptors();
  const c = spawn(bwrap, [...s.args, '--chdir', ws, '--', '/usr/bin/true'], { stdio: ['ignore', 'ignore', 'ignore', 'ignore', ...f, 'pipe'] });
  c.stdio[4 + f.length].on('error', () => {}).end(buildSeccompFilter());
  return new Promise((resolve) => c.once('close', () => { s.close(); resolve(); }));
}
/** Ends the warm sandbox (the init exits on the channel's end), removes its cgroup and the workspace. */
async function shutdown() {
  ctl.destroy();
  await new Promise((r) => child.once('close', r));
  if (cgroup) { const { removed } = cgroup.finish(); await removed; }
  warm.close();
  rmSync(scratch, { recursive: true, force: true });
}
if (process.env.BREAKDOWN) {
  const steps = { lock: [], 'plan (prepareSandbox: opens, watched walk, protected set, /etc copies)': [], 'identity compare': [], 'mount re-verification': [], 'protected record': [], 'cgroup counters (2 reads)': [], 'hand-off': [], 'aftercare (walk, git compare, protected compare)': [], 'plan close + lock release': [] };
  const t = () => process.hrtime.bigint();
  const keys = Object.keys(steps);
  for (let i = 0; i < Number(process.env.ITER ?? 64); i++) {
    const m = []; let a = t();
    const mark = () => { const b = t(); m.push(Number(b - a) / 1e6); a = b; };
    const lock = await lockWriteScopes(layout.writeRoots); mark();
    const plan = prepareSandbox(layout, { seccomp: true }); mark();
    if (i === 0) console.log('protected set:', plan.protectedSet.reasons?.size, 'reasons,', plan.protectedSet.paths.length, 'paths,', plan.protectedSet.locations.length, 'locations');
    if (identity(plan) !== warmIdentity) throw new Error('changed'); mark();
    verifySandboxMounts(initPid, plan.expectations); mark();
    const record = recordProtected(plan.protectedSet, layout.writeRoots); mark();
    const c0 = countersBefore(); mark();
    await handOff(); a = t();
    if (countersBefore().join() !== c0.join()) throw new Error('limit'); const cnt = Number(t() - a) / 1e6; a = t();
    finishGitStateCheck(layout, plan.inventory, record); mark();
    plan.close(); lock.release(); mark();
    if (i < 4) continue;
    const vals = [m[0], m[1], m[2], m[3], m[4], m[5] + cnt, NaN, m[6], m[7]];
    vals.forEach((v, k) => steps[keys[k]].push(v));
  }
  const med = (l) => [...l].sort((x, y) => x - y)[Math.floor(l.length / 2)];
  for (const k of keys) if (k !== 'hand-off') console.log(`${k}: ${med(steps[k]).toFixed(3)} ms`);
  await shutdown();
  process.exit(0);
}
if (process.env.CHECK) {
  const { readdirSync } = await import('node:fs');
  const files = () => readdirSync(ws, { recursive: true }).length;
  const n0 = files();
  const sh = (script, expect = 'X 0') => handOff(request(['/bin/sh', '-c', script], ws), expect);
  console.log('printf:', JSON.stringify(await handOff(request(['/usr/bin/printf', 'hello'], ws))));
  console.log('leaves a daemon, files, shm; exits 3:', JSON.stringify(await sh('(sleep 1000 </dev/null >/dev/null 2>&1 &); touch /tmp/x /dev/shm/y; mkdir -p /tmp/d/e; chmod 0 /tmp/d; echo started; exit 3', 'X 768')));
  console.log('next call sees processes:', JSON.stringify(await sh('for p in /proc/[0-9]*; do echo "$p $(tr "\\0" " " < $p/cmdline)"; done')));
  console.log('open /proc/1/fd/3, ptrace init:', JSON.stringify(await sh('(exec 5<>/proc/1/fd/3 && echo OPENED) 2>&1; readlink /proc/1/fd/3 2>&1; python3 -c "import ctypes,os; l=ctypes.CDLL(None,use_errno=True); r=l.ptrace(16,1,0,0); print(\\"attach\\", r, os.strerror(ctypes.get_errno()))" 2>&1')));
  console.log('next call sees /tmp, /dev/shm:', JSON.stringify(await sh('ls -A /tmp /tmp/home /dev/shm')));
  console.log('ptrace/proc of init:', JSON.stringify(await sh('ls /proc/1/fd 2>&1; cat /proc/1/environ 2>&1 | head -c 80; kill -9 1; kill -STOP 1; echo kill=$?')));
  console.log('writable places outside /tmp:', JSON.stringify(await sh('for d in / /dev /dev/shm /dev/pts /etc /proc /zotbox-warm-init; do (touch $d/zz-probe 2>/dev/null || mkdir $d/zz-probe-d 2>/dev/null) && echo "$d WRITABLE"; done; python3 -c "import ctypes; l=ctypes.CDLL(\\"librt.so.1\\",use_errno=True); print(\\"mq_open\\", l.mq_open(b\\"/zq\\", 0o100|2, 0o600, None))" 2>&1; ipcmk -M 4096 2>&1; ipcmk -S 1 2>&1; ipcmk -Q 2>&1')));
  console.log('next call sees:', JSON.stringify(await sh('ls -A / /dev | tr "\\n" " "; ipcs 2>&1 | grep -c "^0x"; python3 -c "import ctypes; l=ctypes.CDLL(\\"librt.so.1\\",use_errno=True); print(\\"mq reopen\\", l.mq_open(b\\"/zq\\", 2))" 2>&1')));
  console.log('init still serves:', JSON.stringify(await handOff(request(['/usr/bin/printf', 'alive'], ws))));
  console.log('workspace entries before/after:', n0, files());
  await shutdown();
  process.exit(0);
}
const rounds = await measureRounds([
  { name: 'bare bwrap running true (baseline)', fn: () => spawnAndWait(bwrap, bare) },
  { name: 'confined call today (executeBash)', fn: () => executeBash(decision, { workspace: ws, timeoutMs: 60000, outputCapBytes: 4096, shell, isolation }) },
  { name: 'warm call (host work + hand-off)', fn: () => hostWork(handOff) },
  { name: 'warm hand-off only (round trip to the init)', fn: handOff },
  { name: 'warm host work only (no hand-off)', fn: () => hostWork(async () => {}) },
  { name: "floor: bwrap with the call's sandbox running true", fn: floor },
], { warmup: 3, samples: SAMPLES });
const rows = rounds.samples.map((s, i) => [`${SIZE} dirs: ${s.name}`, s.medianMs.toFixed(2), s.p99Ms.toFixed(2), `${rounds.ratios[i].toFixed(2)}×`]);
process.stdout.write(formatTable(['measure', 'median ms', 'p99 ms', '÷ bare bwrap'], rows));
await shutdown();
