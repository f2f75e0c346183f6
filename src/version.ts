// Version facts: zotbox's own version (from package.json, read once) and the
// zot version whose zotfile behaviour zotbox implements (spec Part A), which
// `runtime.min_zot` is compared against.
import { readFileSync } from 'node:fs';

/** The zot release whose zotfile format and checks zotbox implements (spec Part A). */
export const ZOT_COMPAT_VERSION = '0.2.76';

function readPackageVersion(): string {
  // dist/src/version.js and src/version.ts both sit two levels below the package root.
  const manifestUrl = new URL('../../package.json', import.meta.url);
  const parsed = JSON.parse(readFileSync(manifestUrl, 'utf8')) as { version?: unknown };
  if (typeof parsed.version !== 'string') throw new Error(`package.json at ${manifestUrl.pathname} has no version`);
  return parsed.version;
}

export const ZOTBOX_VERSION: string = readPackageVersion();
