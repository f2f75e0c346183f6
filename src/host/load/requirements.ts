// Requirement checks, all before consent (Part A): requirements.os against the
// Go name of this platform, requirements.bin on the fixed search path the
// agent's commands run with (looked up, never executed), and runtime.min_zot
// against the zot version zotbox implements. Model requirements are checked
// against the model catalog when a run selects a model (the run issue); the
// manifest schema has already validated their form.
import { ZotboxError } from '../../errors.js';
import type { Manifest } from '../../policy/manifest.js';
import { compareSemver, parseSemver } from '../../policy/semver.js';
import { lookupProgram } from '../../policy/program-lookup.js';
import { ZOT_COMPAT_VERSION } from '../../version.js';
import { COMMAND_SEARCH_PATH } from '../executors/command-environment.js';

const GO_OS: Readonly<Partial<Record<NodeJS.Platform, string>>> = {
  linux: 'linux',
  darwin: 'darwin',
  win32: 'windows',
  freebsd: 'freebsd',
  openbsd: 'openbsd',
  netbsd: 'netbsd',
  aix: 'aix',
  sunos: 'solaris',
  android: 'android',
};

export interface RequirementContext {
  readonly platform: NodeJS.Platform;
  readonly searchPath?: readonly string[];
  /** The zot version zotbox implements (default ZOT_COMPAT_VERSION). */
  readonly zotVersion?: string;
}

export function goOsName(platform: NodeJS.Platform): string {
  return GO_OS[platform] ?? platform;
}

/** Every unmet requirement, each with how to meet it; empty when all are met. */
export function findUnmetRequirements(manifest: Manifest, context: RequirementContext): string[] {
  const unmet: string[] = [];
  const running = context.zotVersion ?? ZOT_COMPAT_VERSION;
  if (manifest.runtime.minZot !== undefined) {
    const minimum = parseSemver(manifest.runtime.minZot)!; // validated by the manifest schema
    if (compareSemver(parseSemver(running)!, minimum) < 0) {
      unmet.push(`zot ${manifest.runtime.minZot} or newer: this zotbox implements zot ${running}; update zotbox, or use an older version of the agent`);
    }
  }
  const os = goOsName(context.platform);
  if (manifest.requirements.os.length > 0 && !(manifest.requirements.os as readonly string[]).includes(os)) {
    unmet.push(`an OS among ${manifest.requirements.os.join(', ')}: this machine runs ${os}`);
  }
  const searchPath = context.searchPath ?? COMMAND_SEARCH_PATH;
  for (const program of manifest.requirements.bin) {
    if (lookupProgram(program, searchPath) === undefined) {
      unmet.push(`the program "${program}" on ${searchPath.join(':')} (where agent commands are looked up): install it with your package manager, e.g. apt-get install ${program}`);
    }
  }
  return unmet;
}

/** Throws ZB_REQUIREMENT_UNMET listing everything that is missing. */
export function checkRequirements(manifest: Manifest, context: RequirementContext): void {
  const unmet = findUnmetRequirements(manifest, context);
  if (unmet.length > 0) {
    throw new ZotboxError('ZB_REQUIREMENT_UNMET', `agent ${manifest.name} cannot run here. It requires ${unmet.join('; and ')}.`, { details: { agent: manifest.name, unmet } });
  }
}
