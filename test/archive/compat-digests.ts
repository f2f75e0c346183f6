// Reads test/fixtures/compat/digests.json (the reference digests and entry lists for
// zot's .zot files) with the fields the archive tests use typed. It only reads the
// fixture; it never computes an expected value from zotbox code.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../fixtures/paths.js';

export const COMPAT = path.join(REPO_ROOT, 'test/fixtures/compat');

/** One reference agent in digests.json. */
export interface CompatDigest {
  readonly dir_digest: string;
  readonly zot_digest: string;
  readonly zot_file: string;
  readonly canonical_tar_file: string;
  /** Entry names in canonical order; directories end with "/". */
  readonly entries: readonly string[];
}

/** digests.json, keyed by the agent's directory ("agents/edge-cases"). */
export function readCompatDigests(): Readonly<Record<string, CompatDigest>> {
  return JSON.parse(readFileSync(path.join(COMPAT, 'digests.json'), 'utf8')) as Record<string, CompatDigest>;
}

/** The one reference agent named `key`; a missing key fails the test rather than reading undefined. */
export function compatDigest(key: string): CompatDigest {
  const digest = readCompatDigests()[key];
  if (digest === undefined) throw new Error(`test/fixtures/compat/digests.json has no "${key}"; regenerate the fixtures (see its README).`);
  return digest;
}
