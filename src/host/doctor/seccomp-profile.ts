// The seccomp profile zotbox ships for containers (issue 23): Docker's default
// profile with one rule more, allowing the five calls bubblewrap needs to build its
// sandbox without CAP_SYS_ADMIN (unshare, clone with namespace flags, mount,
// umount2, pivot_root). Every other rule is the engine's default, so a container
// run with it is relaxed in those calls only, not `seccomp=unconfined`. The file
// is in the package (profiles/), for Docker's --security-opt and for Kubernetes
// nodes' Localhost profiles; `zotbox doctor --print-seccomp` prints it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ZotboxError } from '../../errors.js';

/** dist/src/host/doctor/ is four levels below the package root. */
export const SECCOMP_PROFILE_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', 'profiles', 'zotbox-seccomp.json');

/** The profile's text, exactly as shipped. */
export function readSeccompProfile(file: string = SECCOMP_PROFILE_FILE): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new ZotboxError(
      'ZB_DOCTOR_PROFILE_MISSING',
      `Cannot read the seccomp profile zotbox ships at ${file} (${(error as Error).message}). Reinstall zotbox (npm install -g zotbox) to restore it.`,
    );
  }
}
