// The seccomp profile zotbox ships for containers (issue 23 §3): Docker's default
// profile with one rule more, for exactly the calls bubblewrap needs. Applied the
// way runc applies it (libseccomp, Docker's default capabilities) to a child that
// then runs zotbox: under Docker's own default, the sandbox cannot start and doctor
// names seccomp; under zotbox's, doctor reports a working sandbox and a real run's
// command runs confined; without any one of the five calls, the sandbox fails again.
import test from 'ava';
import { parse } from 'yaml';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readSeccompProfile, SECCOMP_PROFILE_FILE } from '../../../src/host/doctor/seccomp-profile.js';
import { ZotboxError } from '../../../src/errors.js';
import { underContainerProfile } from '../../fixtures/container-seccomp.js';
import { BIN, REPO_ROOT } from '../../fixtures/paths.js';
import { tempDir } from '../../fixtures/temp.js';

interface Rule {
  readonly names: readonly string[];
  readonly action: string;
  readonly [key: string]: unknown;
}
interface Profile {
  readonly syscalls: readonly Rule[];
  readonly [key: string]: unknown;
}

const MOBY_DEFAULT = path.join(REPO_ROOT, 'test', 'fixtures', 'containers', 'moby-default-seccomp.json');
const SHIPPED = path.join(REPO_ROOT, 'profiles', 'zotbox-seccomp.json');
const BUBBLEWRAP_NEEDS = ['clone', 'mount', 'pivot_root', 'umount2', 'unshare'];

const isZotboxRule = (rule: Rule) => typeof rule['comment'] === 'string' && rule['comment'].startsWith('zotbox:');

const load = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Profile;

function doctorUnder(profileFile: string): { status: number | null; cause: string | null; detail: string } {
  const argv = underContainerProfile(profileFile, [process.execPath, BIN, 'doctor', '--json']);
  const result = spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' } });
  if (result.stdout === '') throw new Error(`doctor printed nothing: ${result.stderr}`);
  const sandbox = (JSON.parse(result.stdout) as { checks: { name: string; cause: string | null; detail: string }[] }).checks.find((c) => c.name === 'sandbox')!;
  return { status: result.status, cause: sandbox.cause, detail: sandbox.detail };
}

test('the shipped profile is Docker’s default with one rule added: exactly the five calls bubblewrap needs, allowed', (t) => {
  const shipped = load(SHIPPED);
  const added = shipped.syscalls.filter(isZotboxRule);
  t.is(added.length, 1);
  t.deepEqual([...added[0]!.names].sort(), BUBBLEWRAP_NEEDS);
  t.is(added[0]!.action, 'SCMP_ACT_ALLOW');
  t.deepEqual(Object.keys(added[0]!).sort(), ['action', 'comment', 'names'], 'no args, includes or excludes: the rule is what it says');
  t.deepEqual({ ...shipped, syscalls: shipped.syscalls.filter((rule) => rule !== added[0]) }, load(MOBY_DEFAULT));
  t.is(shipped['defaultAction'], 'SCMP_ACT_ERRNO');
});

test('under Docker’s default profile the sandbox cannot start, and doctor names the seccomp cause and the profile to use', (t) => {
  const report = doctorUnder(MOBY_DEFAULT);
  t.is(report.status, 1);
  t.is(report.cause, 'seccomp');
  t.regex(report.detail, /refuses a system call bubblewrap needs \(unshare, clone with CLONE_NEWUSER, mount, umount2 or pivot_root\)/u);
});

test('under the shipped profile doctor reports a working sandbox', (t) => {
  const report = doctorUnder(SHIPPED);
  t.is(report.status, 0, report.detail);
  t.is(report.cause, null);
});

test('without any one of the five calls the sandbox fails again: the profile allows nothing bubblewrap does not need', (t) => {
  const root = tempDir(t, 'zb-seccomp-drop-');
  for (const call of BUBBLEWRAP_NEEDS) {
    const shipped = load(SHIPPED);
    const weakened = {
      ...shipped,
      syscalls: shipped.syscalls.map((rule) => ({ ...rule, names: rule.names.filter((name) => !(name === call && isZotboxRule(rule))) })),
    };
    const file = path.join(root, `without-${call}.json`);
    writeFileSync(file, JSON.stringify(weakened));
    const report = doctorUnder(file);
    t.is(report.status, 1, `without ${call}`);
    t.is(report.cause, 'seccomp', `without ${call}: ${report.detail}`);
  }
});

test('under the shipped profile a whole run’s command runs confined and writes its file', (t) => {
  const root = realpathSync(tempDir(t, 'zb-seccomp-run-'));
  const [agent, ws] = [path.join(root, 'agent'), path.join(root, 'ws')];
  mkdirSync(agent);
  mkdirSync(ws);
  const manifest = { zotfile: 1, name: 'runner', version: '1.0.0', permissions: { fs: { read: ['${workspace}'], write: ['${workspace}'] }, bash: { mode: 'ask' } } };
  writeFileSync(path.join(agent, 'manifest.json'), JSON.stringify(manifest));
  writeFileSync(path.join(agent, 'AGENT.md'), 'Runs one command.\n');
  const usage = { input_tokens: 1, output_tokens: 1 };
  const command = 'grep -c . /proc/self/status > /dev/null && echo "$(id -u)" > out.txt';
  const turns = [
    { content: [{ type: 'tool_use', id: 't1', name: 'bash', input: { command } }], stop: 'tool_use', usage },
    { content: [{ type: 'text', text: 'done' }], stop: 'end', usage },
  ];
  writeFileSync(path.join(root, 'replay.json'), JSON.stringify({ zotbox_replay: 1, model: 'replay', turns }));
  const argv = underContainerProfile(SHIPPED, [process.execPath, BIN, 'run', agent, 'go', '--replay', path.join(root, 'replay.json'), '-y', '--cwd', ws, '--no-session']);
  const result = spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ZOTBOX_HOME: path.join(root, 'state') } });
  t.is(result.status, 0, result.stderr);
  t.true(existsSync(path.join(ws, 'out.txt')));
  t.is(readFileSync(path.join(ws, 'out.txt'), 'utf8'), '65534\n', 'the command ran as the sandbox’s unprivileged user');
});

test('zotbox doctor --print-seccomp prints the shipped file byte for byte', (t) => {
  const result = spawnSync(process.execPath, [BIN, 'doctor', '--print-seccomp'], { encoding: 'utf8', env: {} });
  t.is(result.status, 0);
  t.is(result.stdout, readFileSync(SHIPPED, 'utf8'));
  t.is(SECCOMP_PROFILE_FILE, SHIPPED);
});

test('a missing profile is ZB_DOCTOR_PROFILE_MISSING, naming the path and the fix', (t) => {
  const missing = path.join(tempDir(t, 'zb-seccomp-missing-'), 'zotbox-seccomp.json');
  const error = t.throws(() => readSeccompProfile(missing), { instanceOf: ZotboxError });
  t.is(error.code, 'ZB_DOCTOR_PROFILE_MISSING');
  t.true(error.message.includes(missing));
  t.regex(error.message, /Reinstall zotbox/u);
});

test('the container recipes carry each option they need: docs/install.md for Docker, examples/containers/pod.yaml for Kubernetes', (t) => {
  const pod = parse(readFileSync(path.join(REPO_ROOT, 'examples', 'containers', 'pod.yaml'), 'utf8')) as {
    spec: { hostUsers: boolean; containers: { securityContext: Record<string, unknown> }[] };
  };
  t.false(pod.spec.hostUsers, 'procMount: Unmasked needs a user namespace of the pod');
  t.like(pod.spec.containers[0]!.securityContext, {
    procMount: 'Unmasked',
    seccompProfile: { type: 'Localhost', localhostProfile: path.basename(SHIPPED) },
    appArmorProfile: { type: 'Unconfined' },
  });
  const install = readFileSync(path.join(REPO_ROOT, 'docs', 'install.md'), 'utf8');
  const dockerRun = /```text\n(docker run [^`]*)```/u.exec(install)?.[1] ?? '';
  for (const option of ['--security-opt seccomp=zotbox-seccomp.json', '--security-opt systempaths=unconfined', '--security-opt apparmor=unconfined']) t.true(dockerRun.includes(option), option);
  t.true(install.includes('zotbox doctor --print-seccomp > zotbox-seccomp.json'));
});
