// Why bubblewrap cannot build zotbox's sandbox here, and the fix for that cause
// (issue 23): told from the system's own state (sysctls, the process's seccomp
// mode, container markers, the kernel release) and bubblewrap's own message, never
// guessed from one of them alone. The decision is a pure function of the facts,
// so every cause is pinned by a test, including those this machine cannot reach.
import { readFileSync } from 'node:fs';
import { release } from 'node:os';
import { containerRestriction } from './container-diagnosis.js';
import type { SandboxDiagnosis, SandboxFacts } from './sandbox-facts.js';

export type { SandboxCause, SandboxDiagnosis, SandboxFacts } from './sandbox-facts.js';

/** Linux 4.9 made user namespace limits per namespace, which --disable-userns relies on. */
const MINIMUM_KERNEL: readonly [number, number] = [4, 9];

const INSTALL =
  'install bubblewrap 0.8 or later: sudo apt-get install -y bubblewrap (Debian, Ubuntu), sudo dnf install -y bubblewrap (Fedora), sudo apk add bubblewrap (Alpine); or opt out of confinement with --confine off';

function kernelIsOlder(releaseText: string, [major, minor]: readonly [number, number]): boolean {
  const match = /^(\d+)\.(\d+)/u.exec(releaseText);
  if (match === null) return false;
  const [found, foundMinor] = [Number(match[1]), Number(match[2])];
  return found < major || (found === major && foundMinor < minor);
}

function userNamespacesOff(facts: SandboxFacts, message: string): boolean {
  return facts.maxUserNamespaces === 0 || facts.unprivilegedUsernsClone === 0 || /max_\*_namespaces exceeded|\(ENOSPC\)/u.test(message);
}

function userNamespacesFix(facts: SandboxFacts): string {
  const clone = facts.unprivilegedUsernsClone === 0;
  const key = clone ? 'kernel.unprivileged_userns_clone' : 'user.max_user_namespaces';
  const value = clone ? '1' : '15000';
  return `enable them: sudo sysctl -w ${key}=${value}, and to keep it after a reboot: echo '${key}=${value}' | sudo tee /etc/sysctl.d/60-zotbox-userns.conf (this lets every program create user namespaces)`;
}

/** The cause of a failed probe, in the order that separates them: the most specific evidence first. */
export function diagnoseSandbox(facts: SandboxFacts): SandboxDiagnosis {
  if (facts.bwrap === undefined) return { ok: false, cause: 'not-installed', summary: 'bubblewrap (bwrap) is not installed', fix: INSTALL };
  if (facts.probe?.status === 0) return { ok: true, bwrap: facts.bwrap };
  const message = facts.probe?.message ?? '';
  const said = message === '' ? '' : ` (bubblewrap said: ${message})`;
  if (/unknown option|unrecognized option/iu.test(message)) {
    return { ok: false, cause: 'bubblewrap-too-old', summary: `the installed bubblewrap is too old for the flags zotbox uses${said}`, fix: INSTALL };
  }
  if (userNamespacesOff(facts, message)) {
    return { ok: false, cause: 'userns-disabled', summary: `unprivileged user namespaces are disabled on this system${said}`, fix: userNamespacesFix(facts) };
  }
  if (facts.apparmorRestrictsUserns === 1) {
    return {
      ok: false,
      cause: 'apparmor',
      summary: `AppArmor restricts unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns=1, Ubuntu 23.10 and later)${said}`,
      fix: 'let /usr/bin/bwrap alone create them: sudo zotbox doctor --fix-apparmor (installs the AppArmor profile /etc/apparmor.d/zotbox-bwrap and loads it); or, wider, for every program: sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0',
    };
  }
  const restriction = containerRestriction(facts, message, said);
  if (restriction !== undefined) return restriction;
  if (kernelIsOlder(facts.kernelRelease, MINIMUM_KERNEL)) {
    return {
      ok: false,
      cause: 'kernel-too-old',
      summary: `Linux ${facts.kernelRelease} is older than ${MINIMUM_KERNEL.join('.')}, which the sandbox needs (per-namespace user namespace limits)${said}`,
      fix: `upgrade the kernel to Linux ${MINIMUM_KERNEL.join('.')} or later, or opt out of confinement with --confine off`,
    };
  }
  if (facts.container !== undefined) {
    return {
      ok: false,
      cause: 'container',
      summary: `the ${facts.container} container this process runs in stops bubblewrap${said}`,
      fix: 'run the container so bubblewrap may mount: Docker: --security-opt apparmor=unconfined --security-opt systempaths=unconfined --security-opt seccomp=zotbox-seccomp.json (from zotbox doctor --print-seccomp); the recipes are in docs/install.md, "Containers"',
    };
  }
  return {
    ok: false,
    cause: 'other',
    summary: `bubblewrap cannot create an unprivileged sandbox here${said === '' ? ' (it printed nothing)' : said}`,
    fix: 'run bubblewrap by hand to see its full message: bwrap --unshare-user --unshare-pid --ro-bind / / --proc /proc -- /bin/true',
  };
}

function readNumber(file: string): number | undefined {
  try {
    const value = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
    return Number.isNaN(value) ? undefined : value;
  } catch {
    return undefined;
  }
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function containerMarker(env: Readonly<Record<string, string | undefined>>): SandboxFacts['container'] {
  if (env['KUBERNETES_SERVICE_HOST'] !== undefined || /kubepods/u.test(readText('/proc/1/cgroup') ?? '')) return 'kubernetes';
  if (readText('/run/.containerenv') !== undefined) return 'podman';
  if (readText('/.dockerenv') !== undefined) return 'docker';
  return readText('/run/systemd/container') === undefined ? undefined : 'container';
}

/** Mount points below /proc other than binfmt_misc's (an empty directory of procfs, which the kernel allows over). */
function procOvermounts(): readonly string[] | undefined {
  const mountinfo = readText('/proc/self/mountinfo');
  if (mountinfo === undefined) return undefined;
  return mountinfo
    .split('\n')
    .map((line) => line.split(' ')[4] ?? '')
    .filter((point) => point.startsWith('/proc/') && point !== '/proc/sys/fs/binfmt_misc');
}

/** The system's side of the facts, read now. */
export function readSystemFacts(env: Readonly<Record<string, string | undefined>>): Omit<SandboxFacts, 'bwrap' | 'probe'> {
  const status = readText('/proc/self/status');
  const seccomp = status === undefined ? undefined : /^Seccomp:\s*(\d+)/mu.exec(status)?.[1];
  return {
    maxUserNamespaces: readNumber('/proc/sys/user/max_user_namespaces'),
    unprivilegedUsernsClone: readNumber('/proc/sys/kernel/unprivileged_userns_clone'),
    apparmorRestrictsUserns: readNumber('/proc/sys/kernel/apparmor_restrict_unprivileged_userns'),
    seccompMode: seccomp === undefined ? undefined : Number(seccomp),
    procOvermounts: procOvermounts(),
    appArmorLabel: readText('/proc/self/attr/current')?.replace(/\0/gu, ''),
    container: containerMarker(env),
    kernelRelease: release(),
  };
}
