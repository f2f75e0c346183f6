// The system part of every sandbox (issue 9 §2): programs and libraries
// read-only, and from /etc only a closed list of entries programs need, each
// world-readable. /etc holds secrets (shadow, private TLS keys, tokens in npmrc
// or pip.conf) that a sandboxed process could otherwise read whenever zotbox
// runs as root, because the kernel then still sees it as the files' owner.
// Computed once per process: none of these directories is agent-writable.
import { lstatSync, readdirSync, readlinkSync } from 'node:fs';
import path from 'node:path';

/** Mounted read-only when they exist (as symlinks when they are symlinks on the host). */
const SYSTEM_DIRECTORIES = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/opt'];

/** /etc entries programs read, by exact name or pattern. Everything else in /etc is absent. */
const ETC_ALLOWED: readonly (string | RegExp)[] = [
  'alternatives',
  'bash.bashrc',
  'ca-certificates',
  'ca-certificates.conf',
  'debian_version',
  'environment',
  'fonts',
  'gai.conf',
  'group',
  'host.conf',
  'hostname',
  'hosts',
  'inputrc',
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'locale.alias',
  'locale.conf',
  'locale.gen',
  'localtime',
  'lsb-release',
  'magic',
  'magic.mime',
  'manpath.config',
  'mime.types',
  'nsswitch.conf',
  'os-release',
  'passwd',
  'perl',
  'profile',
  'protocols',
  'services',
  'shells',
  'terminfo',
  'timezone',
  'vim',
  'xml',
  'sgml',
  'mtab',
  'gprofng.rc',
  'mke2fs.conf',
  'maven',
  'gdb',
  /^java-[0-9.]+-openjdk$/u,
  /^python3(\.[0-9]+)?$/u,
  /^ruby[0-9.]*$/u,
  /^(alpine|redhat|fedora|system)-release$/u,
];
/** Below /etc/ssl only the certificates and the OpenSSL configuration: never private/. */
const ETC_SSL_ALLOWED = ['certs', 'openssl.cnf'];

function worldReadable(mode: number, directory: boolean): boolean {
  return directory ? (mode & 0o005) === 0o005 : (mode & 0o004) === 0o004;
}

function mountEntry(source: string, args: string[]): void {
  const stats = lstatSync(source, { throwIfNoEntry: false });
  if (stats === undefined) return;
  if (stats.isSymbolicLink()) args.push('--symlink', readlinkSync(source), source);
  else if ((stats.isFile() || stats.isDirectory()) && worldReadable(stats.mode, stats.isDirectory())) args.push('--ro-bind', source, source);
}

let cached: readonly string[] | undefined;

/** The bwrap arguments for the system directories and the allowed part of /etc. */
export function systemMountArguments(): readonly string[] {
  if (cached !== undefined) return cached;
  const args: string[] = [];
  for (const directory of SYSTEM_DIRECTORIES) mountEntry(directory, args);
  let names: string[] = [];
  try {
    names = readdirSync('/etc');
  } catch {
    names = []; // no /etc: programs get none
  }
  for (const name of names.sort()) {
    if (ETC_ALLOWED.some((allowed) => (typeof allowed === 'string' ? allowed === name : allowed.test(name)))) mountEntry(path.join('/etc', name), args);
  }
  for (const name of ETC_SSL_ALLOWED) mountEntry(path.join('/etc/ssl', name), args);
  cached = args;
  return args;
}

/** Where the system mounts land in the sandbox (their destinations). */
export function systemMountTargets(): string[] {
  const args = systemMountArguments();
  return args.flatMap((arg, index) => (arg === '--ro-bind' ? [args[index + 2]!] : []));
}
