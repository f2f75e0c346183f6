// The causes by which a container stops bubblewrap (issue 23), told apart by their
// own evidence: a masked /proc (the kernel refuses a fresh procfs where the existing
// one is partly hidden, "VFS: Mount too revealing"), a seccomp filter refusing a
// call bubblewrap needs (EPERM), and the engine's AppArmor profile refusing mounts
// (EACCES, under an enforcing label). The masked /proc is decided first: in a
// container run with zotbox's seccomp profile the filter is on, yet it is not the cause.
import type { SandboxDiagnosis, SandboxFacts } from './sandbox-facts.js';

type Failure = Extract<SandboxDiagnosis, { ok: false }>;

const RECIPES = 'the recipes are in docs/install.md, "Containers"';

function procMasked(overmounts: readonly string[], said: string): Failure {
  const shown = `${overmounts.slice(0, 3).join(', ')}${overmounts.length > 3 ? ', …' : ''}`;
  return {
    ok: false,
    cause: 'proc-masked',
    summary: `parts of /proc are masked here (${shown}), so the kernel refuses bubblewrap a fresh /proc${said}`,
    fix: `run the container with /proc unmasked: Docker: --security-opt systempaths=unconfined; Podman: --security-opt unmask=ALL; Kubernetes: securityContext.procMount: Unmasked (with hostUsers: false); ${RECIPES}`,
  };
}

function seccompRefuses(container: SandboxFacts['container'], said: string): Failure {
  const where = container === undefined ? 'a seccomp filter on this process' : `the ${container} seccomp profile this process runs under`;
  return {
    ok: false,
    cause: 'seccomp',
    summary: `${where} refuses a system call bubblewrap needs (unshare, clone with CLONE_NEWUSER, mount, umount2 or pivot_root)${said}`,
    fix: `run the container with zotbox's seccomp profile, which allows unshare, clone with CLONE_NEWUSER, mount, umount2 and pivot_root: zotbox doctor --print-seccomp > zotbox-seccomp.json, then Docker: --security-opt seccomp=zotbox-seccomp.json; Kubernetes: securityContext.seccompProfile type Localhost; ${RECIPES}`,
  };
}

function appArmorRefuses(container: string, label: string, said: string): Failure {
  return {
    ok: false,
    cause: 'container-apparmor',
    summary: `the AppArmor profile of this ${container} container (${label}) refuses bubblewrap's mounts${said}`,
    fix: `run the container without the engine's default AppArmor profile: Docker: --security-opt apparmor=unconfined; Kubernetes: securityContext.appArmorProfile type Unconfined (1.30 and later), or a Localhost profile that allows mount; ${RECIPES}`,
  };
}

/** The container restriction that stopped the probe, or undefined when the evidence names none. */
export function containerRestriction(facts: SandboxFacts, message: string, said: string): Failure | undefined {
  const overmounts = facts.procOvermounts ?? [];
  if (/can't mount proc/iu.test(message) && overmounts.length > 0) return procMasked(overmounts, said);
  if (facts.seccompMode === 2 && /operation not permitted|no permissions to creat/iu.test(message)) return seccompRefuses(facts.container, said);
  const label = facts.appArmorLabel?.trim() ?? '';
  if (facts.container !== undefined && /\(enforce\)$/u.test(label) && /permission denied/iu.test(message)) return appArmorRefuses(facts.container, label, said);
  return undefined;
}
