// What the sandbox diagnosis (sandbox-diagnosis.ts, container-diagnosis.ts) decides from, and what it decides.

export type SandboxCause = 'not-installed' | 'bubblewrap-too-old' | 'userns-disabled' | 'apparmor' | 'proc-masked' | 'seccomp' | 'container-apparmor' | 'container' | 'kernel-too-old' | 'other';

/** What the diagnosis reads. A fact that cannot be read is undefined: it then explains nothing. */
export interface SandboxFacts {
  /** Where bwrap was found, or undefined. */
  readonly bwrap: string | undefined;
  /** The probe's exit status (null: killed or not started) and bubblewrap's first stderr line. */
  readonly probe: { readonly status: number | null; readonly message: string } | undefined;
  /** /proc/sys/user/max_user_namespaces */
  readonly maxUserNamespaces: number | undefined;
  /** /proc/sys/kernel/unprivileged_userns_clone (Debian's and older Ubuntu's switch). */
  readonly unprivilegedUsernsClone: number | undefined;
  /** /proc/sys/kernel/apparmor_restrict_unprivileged_userns (Ubuntu 23.10 and later). */
  readonly apparmorRestrictsUserns: number | undefined;
  /** The Seccomp field of /proc/self/status: 0 none, 1 strict, 2 filter. */
  readonly seccompMode: number | undefined;
  /** Mount points below /proc that hide part of it (a container's masked paths), from /proc/self/mountinfo. */
  readonly procOvermounts: readonly string[] | undefined;
  /** The AppArmor label this process runs under (/proc/self/attr/current), e.g. "docker-default (enforce)". */
  readonly appArmorLabel: string | undefined;
  /** A container this process runs in, by its marker, or undefined. */
  readonly container: 'docker' | 'podman' | 'kubernetes' | 'container' | undefined;
  /** os.release(), e.g. "6.8.0-45-generic". */
  readonly kernelRelease: string;
}

export type SandboxDiagnosis = { readonly ok: true; readonly bwrap: string } | { readonly ok: false; readonly cause: SandboxCause; readonly summary: string; readonly fix: string };
