// `zotbox doctor` and ZB_CONFINEMENT_UNAVAILABLE name the cause of a sandbox that
// cannot start, and its fix (issue 23). Where this machine can make the cause
// real without touching other tests, it is real: user namespaces switched off in
// a private user namespace of the test's own, a seccomp filter like Docker's on a
// child. The causes this machine cannot reach (Ubuntu's AppArmor restriction, an
// old kernel or bubblewrap) are driven through the diagnosis's facts.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { diagnoseSandbox, type SandboxFacts } from '../../../src/host/executors/confine/sandbox-diagnosis.js';
import { sandboxFacts } from '../../../src/host/executors/confine/mode.js';
import { runDoctor, stateChecks, userChecks, type DoctorCheck } from '../../../src/host/doctor/run-doctor.js';
import { underUserNamespaceDenial } from '../../fixtures/deny-user-namespaces.js';
import { BIN } from '../../fixtures/paths.js';

interface DoctorJson {
  readonly ok: boolean;
  readonly checks: readonly { readonly name: string; readonly ok: boolean; readonly detail: string; readonly cause: string | null; readonly fix: string | null }[];
}

function doctor(prefix: readonly string[]): { status: number | null; json: DoctorJson; stderr: string } {
  const argv = [...prefix, process.execPath, BIN, 'doctor', '--json'];
  // A key variable is set (its value never printed), so the keys check passes and only the sandbox decides.
  const result = spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', OPENAI_API_KEY: 'doctor-test-key' } });
  return { status: result.status, json: JSON.parse(result.stdout || '{}') as DoctorJson, stderr: result.stderr };
}

const sandbox = (report: DoctorJson) => report.checks.find((check) => check.name === 'sandbox')!;

test('on this machine the sandbox starts: doctor says so and exits 0', (t) => {
  const { status, json } = doctor([]);
  t.is(status, 0);
  t.true(json.ok);
  t.like(sandbox(json), { ok: true, cause: null, fix: null });
});

test('user namespaces switched off (max_user_namespaces=0): the cause is userns-disabled, with the sysctl to paste', (t) => {
  // A user namespace of the test's own: its limit is its own, so no other test sees the change.
  const { status, json, stderr } = doctor(['unshare', '--user', '--map-root-user', 'sh', '-c', 'echo 0 > /proc/sys/user/max_user_namespaces && exec "$@"', 'sh']);
  t.is(status, 1, stderr);
  t.like(sandbox(json), { ok: false, cause: 'userns-disabled' });
  t.regex(sandbox(json).detail, /^unprivileged user namespaces are disabled on this system \(bubblewrap said: .*max_\*_namespaces exceeded/u);
  t.is(
    sandbox(json).fix,
    "enable them: sudo sysctl -w user.max_user_namespaces=15000, and to keep it after a reboot: echo 'user.max_user_namespaces=15000' | sudo tee /etc/sysctl.d/60-zotbox-userns.conf (this lets every program create user namespaces)",
  );
});

test("a container's seccomp profile refusing user namespaces: the cause is seccomp, with the profile to use", (t) => {
  const { status, json, stderr } = doctor(underUserNamespaceDenial([]));
  t.is(status, 1, stderr);
  t.like(sandbox(json), { ok: false, cause: 'seccomp' });
  t.regex(sandbox(json).detail, /seccomp (profile this process runs under|filter on this process) refuses a system call bubblewrap needs .*\(bubblewrap said: bwrap: No permissions to creat/u);
  t.regex(sandbox(json).fix ?? '', /zotbox doctor --print-seccomp > zotbox-seccomp\.json, then Docker: --security-opt seccomp=zotbox-seccomp\.json/u);
});

test("a /proc partly masked, as a container's default masks it: the cause is proc-masked, with the option that unmasks it", (t) => {
  // An outer sandbox of the test's own hides /proc/keys behind /dev/null, as Docker hides it; the kernel then refuses
  // zotbox's inner sandbox a fresh /proc ("VFS: Mount too revealing"). Nothing outside the outer sandbox changes.
  if (!existsSync('/proc/keys')) throw new Error("this kernel has no /proc/keys to mask; pick another masked path of Docker's for this test");
  const outer = ['bwrap', '--unshare-user', '--unshare-pid', '--dev-bind', '/', '/', '--proc', '/proc', '--ro-bind', '/dev/null', '/proc/keys', '--'];
  const { status, json, stderr } = doctor(outer);
  t.is(status, 1, stderr);
  t.like(sandbox(json), { ok: false, cause: 'proc-masked' });
  t.regex(sandbox(json).detail, /^parts of \/proc are masked here \(.*\/proc\/keys.*\), so the kernel refuses bubblewrap a fresh \/proc \(bubblewrap said: bwrap: Can't mount proc/u);
  t.regex(sandbox(json).fix ?? '', /Docker: --security-opt systempaths=unconfined; Podman: --security-opt unmask=ALL; Kubernetes: securityContext\.procMount: Unmasked/u);
});

test('no bubblewrap on the search path: the cause is not-installed, with the install commands', (t) => {
  const report = runDoctor(sandboxFacts(['/nonexistent-zotbox-search-path'], {}));
  const check = report.checks.find((c) => c.name === 'sandbox')!;
  t.false(report.ok);
  t.is(check.cause, 'not-installed');
  t.is(check.detail, 'bubblewrap (bwrap) is not installed');
  t.regex(check.fix ?? '', /sudo apt-get install -y bubblewrap \(Debian, Ubuntu\)/u);
});

const base: SandboxFacts = {
  bwrap: '/usr/bin/bwrap',
  probe: { status: 1, message: '' },
  maxUserNamespaces: 15000,
  unprivilegedUsernsClone: undefined,
  apparmorRestrictsUserns: 0,
  seccompMode: 0,
  procOvermounts: [],
  appArmorLabel: undefined,
  container: undefined,
  kernelRelease: '6.8.0-45-generic',
};

test("Ubuntu 24.04's AppArmor restriction (a seam: the facts such a runner has): the cause is apparmor, the narrow fix first", (t) => {
  const diagnosis = diagnoseSandbox({ ...base, apparmorRestrictsUserns: 1, probe: { status: 1, message: 'bwrap: setting up uid map: Permission denied' } });
  t.deepEqual(diagnosis, {
    ok: false,
    cause: 'apparmor',
    summary: 'AppArmor restricts unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns=1, Ubuntu 23.10 and later) (bubblewrap said: bwrap: setting up uid map: Permission denied)',
    fix: 'let /usr/bin/bwrap alone create them: sudo zotbox doctor --fix-apparmor (installs the AppArmor profile /etc/apparmor.d/zotbox-bwrap and loads it); or, wider, for every program: sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0',
  });
});

test('each other cause has its own code and fix: old bubblewrap, Debian switch off, old kernel, container mounts, anything else', (t) => {
  const cause = (facts: Partial<SandboxFacts>) => {
    const diagnosis = diagnoseSandbox({ ...base, ...facts });
    return diagnosis.ok ? 'ok' : diagnosis.cause;
  };
  t.is(cause({ probe: { status: 1, message: 'bwrap: Unknown option --disable-userns' } }), 'bubblewrap-too-old');
  t.is(cause({ unprivilegedUsernsClone: 0, probe: { status: 1, message: 'bwrap: No permissions to creating new namespace' } }), 'userns-disabled');
  t.regex((diagnoseSandbox({ ...base, unprivilegedUsernsClone: 0 }) as { fix: string }).fix, /sudo sysctl -w kernel\.unprivileged_userns_clone=1/u);
  t.is(cause({ kernelRelease: '4.4.0-210-generic', probe: { status: 1, message: 'bwrap: Creating new namespace failed: Invalid argument' } }), 'kernel-too-old');
  t.is(cause({ container: 'docker', probe: { status: 1, message: "bwrap: Can't mount proc on /newroot/proc: Operation not permitted" } }), 'container');
  const masked = {
    container: 'docker' as const,
    seccompMode: 2,
    procOvermounts: ['/proc/acpi', '/proc/kcore'],
    probe: { status: 1, message: "bwrap: Can't mount proc on /newroot/proc: Operation not permitted" },
  };
  t.is(cause(masked), 'proc-masked', 'a masked /proc is the cause even under a seccomp filter that let bubblewrap this far');
  const mountRefused = { container: 'docker' as const, appArmorLabel: 'docker-default (enforce)\n', probe: { status: 1, message: 'bwrap: Failed to make / slave: Permission denied' } };
  t.deepEqual(diagnoseSandbox({ ...base, ...mountRefused }), {
    ok: false,
    cause: 'container-apparmor',
    summary: "the AppArmor profile of this docker container (docker-default (enforce)) refuses bubblewrap's mounts (bubblewrap said: bwrap: Failed to make / slave: Permission denied)",
    fix: 'run the container without the engine\'s default AppArmor profile: Docker: --security-opt apparmor=unconfined; Kubernetes: securityContext.appArmorProfile type Unconfined (1.30 and later), or a Localhost profile that allows mount; the recipes are in docs/install.md, "Containers"',
  });
  t.is(cause({ ...mountRefused, appArmorLabel: 'unconfined\n' }), 'container', 'an unconfined label is not the cause');
  t.is(cause({ probe: { status: 1, message: 'bwrap: something new' } }), 'other');
  t.regex((diagnoseSandbox({ ...base, probe: { status: 1, message: 'bwrap: something new' } }) as { summary: string }).summary, /bubblewrap said: bwrap: something new/u);
  t.is(cause({ probe: { status: 0, message: '' } }), 'ok');
});

test('doctor names how command limits are enforced here; without prlimit the limits check fails with the install command', (t) => {
  const { json } = doctor([]);
  const limits = json.checks.find((check) => check.name === 'limits');
  t.like(limits, { ok: true, cause: null, fix: null });
  t.regex(limits?.detail ?? '', /^per command, by default: (a cgroup v[12] per command: at most 1024 processes|rlimits only)/);
  const report = runDoctor(sandboxFacts(), process.version, { description: 'rlimits only', prlimit: undefined });
  t.false(report.ok);
  t.like(
    report.checks.find((check) => check.name === 'limits'),
    { ok: false, fix: 'install util-linux: sudo apt-get install util-linux (Fedora: sudo dnf install util-linux)' },
  );
});

test('doctor checks the state directory, the models file and which keys are set, never printing a value, each failure with its fix (issue 27)', (t) => {
  const root = mkdtempSync(path.join(tmpdir(), 'zb-doctor-state-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const state = path.join(root, 'state');
  const named = (checks: readonly DoctorCheck[], name: string) => checks.find((check) => check.name === name);
  const keyed = stateChecks(state, { OPENAI_API_KEY: 'sk-never-printed' });
  t.like(named(keyed, 'state'), { ok: true, detail: `state directory ${state} (the default)` });
  t.like(named(keyed, 'models'), { ok: true });
  t.true(named(keyed, 'models')!.detail.includes(path.join(state, 'models.json')));
  t.like(named(keyed, 'keys'), { ok: true });
  t.regex(named(keyed, 'keys')!.detail, /^OPENAI_API_KEY set; models usable: gpt-4\.1/);
  t.false(JSON.stringify(keyed).includes('sk-never-printed'));
  const none = named(stateChecks(state, {}), 'keys')!;
  t.true(none.ok, 'no key is not a failure: --replay runs need none');
  t.regex(none.detail, /only --replay runs can work; .*--no-key/);
  mkdirSync(state);
  writeFileSync(path.join(state, 'models.json'), JSON.stringify({ models: [{ id: 'local', provider: 'openai', base_url: 'http://127.0.0.1:8080/v1', context_window: 8192, api_key: 'none' }] }));
  t.like(named(stateChecks(state, {}), 'keys'), { ok: true, detail: 'no key variable set; models usable: local' });
  writeFileSync(path.join(state, 'models.json'), '{');
  const invalid = named(stateChecks(state, {}), 'models')!;
  t.false(invalid.ok);
  t.true((invalid.fix ?? '').includes(path.join(state, 'models.json')));
  const file = path.join(root, 'a-file');
  writeFileSync(file, 'x');
  const unusable = stateChecks(file, { ZOTBOX_HOME: file });
  t.like(unusable[0], { name: 'state', ok: false });
  t.regex(unusable[0]!.fix ?? '', /ZOTBOX_HOME/);
  t.is(unusable.length, 1, 'no models check on an unusable state directory');
  t.false(runDoctor(sandboxFacts(), process.version, undefined, unusable).ok, 'a failed state check fails doctor');
});

test('as root doctor says so on a user line that never fails it; as anyone else it says nothing', (t) => {
  const [root] = userChecks(0);
  t.like(root, { name: 'user', ok: true });
  t.regex(root?.detail ?? '', /^running as root: commands still run as an unprivileged user in the sandbox/);
  t.deepEqual(userChecks(1000), []);
  t.deepEqual(userChecks(undefined), []);
  t.true(runDoctor(sandboxFacts(), process.version, undefined, userChecks(0)).ok);
});
