// Semantic versions as zot compares them for runtime.min_zot (spec B §1.4): Go's
// golang.org/x/mod/semver, with an optional leading lowercase "v". Shorthands
// "1" and "1.2" mean 1.0.0 and 1.2.0; a prerelease sorts below its release;
// build metadata is ignored; leading zeros and an uppercase "V" are invalid.

export interface Semver {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  readonly prerelease: readonly string[];
}

const NUMBER = '(0|[1-9][0-9]*)';
const IDENTIFIER = '[0-9A-Za-z-]+';
const FULL = new RegExp(`^${NUMBER}\\.${NUMBER}\\.${NUMBER}(?:-(${IDENTIFIER}(?:\\.${IDENTIFIER})*))?(?:\\+${IDENTIFIER}(?:\\.${IDENTIFIER})*)?$`);
const SHORT = new RegExp(`^${NUMBER}(?:\\.${NUMBER})?$`);

/** Parses "1.2.3", "v1.2.3-rc.1+build", "v1" or "1.2"; undefined when invalid. */
export function parseSemver(text: string): Semver | undefined {
  const body = text.startsWith('v') ? text.slice(1) : text;
  const full = FULL.exec(body);
  if (full !== null) {
    const prerelease = full[4] === undefined ? [] : full[4].split('.');
    // Numeric prerelease identifiers may not have leading zeros.
    if (prerelease.some((id) => /^[0-9]+$/.test(id) && id.length > 1 && id.startsWith('0'))) return undefined;
    return { major: Number(full[1]), minor: Number(full[2]), patch: Number(full[3]), prerelease };
  }
  const short = SHORT.exec(body);
  if (short !== null) return { major: Number(short[1]), minor: Number(short[2] ?? 0), patch: 0, prerelease: [] };
  return undefined;
}

function compareIdentifiers(a: string, b: string): number {
  const aNumeric = /^[0-9]+$/.test(a);
  const bNumeric = /^[0-9]+$/.test(b);
  if (aNumeric && bNumeric) return Math.sign(Number(a) - Number(b)) || Math.sign(a.length - b.length);
  if (aNumeric) return -1;
  if (bNumeric) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Negative when a < b, zero when equal (build metadata ignored), positive when a > b. */
export function compareSemver(a: Semver, b: Semver): number {
  const core = Math.sign(a.major - b.major) || Math.sign(a.minor - b.minor) || Math.sign(a.patch - b.patch);
  if (core !== 0) return core;
  if (a.prerelease.length === 0 || b.prerelease.length === 0) return Math.sign(b.prerelease.length - a.prerelease.length);
  for (let i = 0; i < Math.min(a.prerelease.length, b.prerelease.length); i++) {
    const order = compareIdentifiers(a.prerelease[i]!, b.prerelease[i]!);
    if (order !== 0) return order;
  }
  return Math.sign(a.prerelease.length - b.prerelease.length);
}
