// Whether a warm sandbox (warm-sandbox.ts) may run a call: its plan must be the very plan the sandbox was built
// from. Pure: it digests what prepareSandbox computed for this call (and the caller's stats), never reads the
// filesystem. Everything that shapes the namespace is in the identity: bwrap's arguments (descriptor numbers are
// positional, so equal counts give equal arguments), every mount expectation with the device and inode it must
// hold, the stat of each /etc file copied in, the seccomp filter and the limits. Per-call data (argv, env, cwd,
// stdio) is not: the init sets it for each call. Any difference means a fresh sandbox, never a patched one.
import { createHash } from 'node:crypto';
import type { MountExpectation } from './mount-verification.js';

/** An /etc file the sandbox holds a copy of: a change on the host must not leave the warm copy stale. */
export interface CopiedSourceStat {
  readonly path: string;
  readonly dev: number;
  readonly ino: number;
  readonly size: number;
  readonly mtimeNs: bigint;
  readonly ctimeNs: bigint;
}

export interface PlanFacts {
  readonly args: readonly string[];
  readonly expectations: readonly MountExpectation[];
  readonly copiedSources: readonly CopiedSourceStat[];
  readonly seccomp: Buffer;
  /** The limit values the sandbox's cgroup and rlimits were set from (name to value). */
  readonly limits: Readonly<Record<string, number | bigint | undefined>>;
}

/** Every field of one expectation, in a fixed order: a field added to MountExpectation must be added here. */
function expectationFields(expected: MountExpectation): readonly (string | number | boolean)[] {
  if (expected.kind === 'bind') return ['bind', expected.target, expected.readOnly, expected.dev, expected.ino];
  return ['fresh', expected.target, expected.fsType, expected.readOnly, expected.covers?.dev ?? -1, expected.covers?.ino ?? -1];
}

/** A digest of the plan; equal digests mean the same namespace would be built. */
export function planIdentity(facts: PlanFacts): string {
  const hash = createHash('sha256');
  // Length-prefixed parts: no two different lists can encode to the same bytes.
  const part = (text: string) => hash.update(`${Buffer.byteLength(text)}:${text};`);
  part(`args ${facts.args.length}`);
  for (const arg of facts.args) part(arg);
  part(`expectations ${facts.expectations.length}`);
  for (const expected of facts.expectations) part(JSON.stringify(expectationFields(expected)));
  part(`copied ${facts.copiedSources.length}`);
  for (const s of facts.copiedSources) part(JSON.stringify([s.path, s.dev, s.ino, s.size, String(s.mtimeNs), String(s.ctimeNs)]));
  part(`seccomp ${facts.seccomp.toString('hex')}`);
  const limits = Object.keys(facts.limits)
    .sort()
    .map((name) => [name, String(facts.limits[name])]);
  part(`limits ${JSON.stringify(limits)}`);
  return hash.digest('hex');
}
