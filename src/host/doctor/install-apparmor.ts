// `zotbox doctor --fix-apparmor`: writes the profile (apparmor-profile.ts) and
// loads it with apparmor_parser. Root only: it changes the system's AppArmor
// policy, and says so before it acts. Written to a temp file beside the target
// and renamed, so a failed write leaves no half profile for the next boot.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileSystemError, ZotboxError } from '../../errors.js';
import { APPARMOR_PROFILE, APPARMOR_PROFILE_PATH } from './apparmor-profile.js';
import { lookupProgram } from '../../policy/program-lookup.js';
import { COMMAND_SEARCH_PATH } from '../executors/command-environment.js';

/** The commands a user without root runs instead: exactly what --fix-apparmor does. */
export const APPARMOR_MANUAL_STEPS = [`sudo zotbox doctor --print-apparmor | sudo tee ${APPARMOR_PROFILE_PATH} >/dev/null`, `sudo apparmor_parser -r ${APPARMOR_PROFILE_PATH}`];

/** Throws ZB_DOCTOR_NOT_ROOT, with the commands to run by hand, unless this process is root. */
export function requireRootForAppArmor(isRoot: boolean = process.getuid?.() === 0): void {
  if (!isRoot) {
    throw new ZotboxError(
      'ZB_DOCTOR_NOT_ROOT',
      `--fix-apparmor changes the system's AppArmor policy and must run as root. Run: sudo zotbox doctor --fix-apparmor, or by hand: ${APPARMOR_MANUAL_STEPS.join(' && ')}`,
      { details: { path: APPARMOR_PROFILE_PATH } },
    );
  }
}

/** Writes the profile and loads it; root only (requireRootForAppArmor). */
export function installAppArmorProfile(): void {
  requireRootForAppArmor();
  const temp = path.join(path.dirname(APPARMOR_PROFILE_PATH), `.zotbox-bwrap.${randomBytes(6).toString('hex')}.tmp`);
  try {
    writeFileSync(temp, APPARMOR_PROFILE, { mode: 0o644, flag: 'wx' });
    renameSync(temp, APPARMOR_PROFILE_PATH);
  } catch (cause) {
    rmSync(temp, { force: true });
    throw fileSystemError('write the AppArmor profile', APPARMOR_PROFILE_PATH, cause);
  }
  // Found on the fixed system path only, run with no inherited environment: as root, a PATH the caller (or a
  // workspace directory on it) controls must not choose what runs.
  const parser = lookupProgram('apparmor_parser', COMMAND_SEARCH_PATH);
  const loaded =
    parser === undefined
      ? { status: null, error: new Error(`apparmor_parser is not in ${COMMAND_SEARCH_PATH.join(', ')}`), stderr: '' }
      : spawnSync(parser, ['-r', APPARMOR_PROFILE_PATH], { encoding: 'utf8', env: { PATH: COMMAND_SEARCH_PATH.join(':') } });
  if (loaded.status !== 0) {
    const said = loaded.error?.message ?? loaded.stderr.trim();
    throw new ZotboxError(
      'ZB_DOCTOR_APPARMOR_LOAD',
      `wrote ${APPARMOR_PROFILE_PATH}, but apparmor_parser could not load it (${said}). It needs AppArmor 4 (Ubuntu 23.10 and later); on an older system the profile is not needed. Remove it with: sudo rm ${APPARMOR_PROFILE_PATH}`,
      { details: { path: APPARMOR_PROFILE_PATH } },
    );
  }
}
