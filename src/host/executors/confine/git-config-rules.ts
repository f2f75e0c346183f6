// Reading git config text for the confinement's git rules (issue 9 §3). Two uses:
// the driver names an existing config defines (so that every command runs git
// with those drivers switched off), and the closed-world check of a config file
// that a command created: only keys that name no program and redirect nothing
// are allowed; anything not understood fails the check. Pure, no I/O.
import { readConfigEntries } from './git-config-text.js';

/** Keys a newly created config may hold: what git init, commit, remote add and branch -u write. */
const ALLOWED_KEYS: ReadonlyMap<string, readonly string[]> = new Map([
  ['core', ['repositoryformatversion', 'filemode', 'bare', 'logallrefupdates', 'ignorecase', 'precomposeunicode', 'symlinks']],
  ['extensions', ['objectformat']],
  ['user', ['name', 'email']],
  ['init', ['defaultbranch']],
  ['remote', ['url', 'fetch', 'pushurl']],
  ['branch', ['remote', 'merge']],
]);
/** Sections whose keys live under a quoted subsection (remote "origin"); the rest must have none. */
const SUBSECTIONED = new Set(['remote', 'branch']);

const SECTION = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\\n]|\\.)*)")?\s*\]\s*(?:[#;].*)?$/u;
const ENTRY = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/u;

export type ConfigVerdict = { readonly ok: true } | { readonly ok: false; readonly reason: string };

interface ConfigLine {
  readonly section: string;
  readonly subsection: string | undefined;
  readonly key: string;
  readonly value: string | undefined;
}

/** Splits config text into entries; undefined when any line is outside the plain syntax. */
function parsePlainConfig(text: string): { entries: ConfigLine[] } | { bad: string } {
  const entries: ConfigLine[] = [];
  let section: string | undefined;
  let subsection: string | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    // A NUL cuts git's names and values short ([remote "x\0"] is another key to git), a control character is no plain text.
    if (/[\u0000-\u0008\u000b-\u001f\u007f]/u.test(line)) return { bad: line };
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = SECTION.exec(line);
    if (header !== null) {
      section = header[1]!.toLowerCase();
      subsection = header[2];
      continue;
    }
    const entry = ENTRY.exec(line);
    if (entry === null || section === undefined) return { bad: line };
    const value = entry[2];
    // Quotes and escapes let git read a value other than the text ("ext:"":cmd" is ext::cmd): a new config has none.
    if (value !== undefined && (/["\\]/u.test(value) || /[\u0000-\u0008\u000b-\u001f\u007f]/u.test(value))) return { bad: line };
    entries.push({ section, subsection, key: entry[1]!.toLowerCase(), value });
  }
  return { entries };
}

/** The closed-world check of a config file a command left behind. */
export function checkCreatedConfig(text: string): ConfigVerdict {
  const parsed = parsePlainConfig(text);
  if ('bad' in parsed) return { ok: false, reason: `a line zotbox does not accept in a new git config: ${JSON.stringify(parsed.bad.slice(0, 120))}` };
  for (const { section, subsection, key, value } of parsed.entries) {
    const name = `${section}${subsection === undefined ? '' : `.${subsection}`}.${key}`;
    const allowed = ALLOWED_KEYS.get(section);
    if (allowed === undefined || !allowed.includes(key) || SUBSECTIONED.has(section) !== (subsection !== undefined) || section.includes('.')) {
      return {
        ok: false,
        reason: `the key ${name} may name a program or redirect git; a new repository's config may hold only ${[...ALLOWED_KEYS].map(([s, keys]) => `${s}.{${keys.join(',')}}`).join(' ')}`,
      };
    }
    // "ext::cmd" and other "helper::address" URLs run programs.
    if ((key === 'url' || key === 'pushurl') && value !== undefined && value.includes('::')) return { ok: false, reason: `the remote URL ${JSON.stringify(value)} names a transport helper` };
  }
  return { ok: true };
}

/**
 * The driver names (filter "x", diff "x", merge "x") and whether diff.external is set, in an existing config, as
 * git reads it (git-config-text.ts); after a line git cannot read, nothing (git stops there and runs nothing).
 */
export function configuredDrivers(text: string): { filters: string[]; diffs: string[]; merges: string[]; externalDiff: boolean } {
  const found = { filters: new Set<string>(), diffs: new Set<string>(), merges: new Set<string>() };
  let externalDiff = false;
  for (const entry of readConfigEntries(text).entries) {
    if (entry.subsection !== undefined && (entry.section === 'filter' || entry.section === 'diff' || entry.section === 'merge'))
      (entry.section === 'filter' ? found.filters : entry.section === 'diff' ? found.diffs : found.merges).add(entry.subsection);
    if (entry.section === 'diff' && entry.subsection === undefined && entry.key === 'external') externalDiff = true;
  }
  return { filters: [...found.filters], diffs: [...found.diffs], merges: [...found.merges], externalDiff };
}

/** Paths an existing config includes ([include] / [includeIf "…"] path = …), as git reads them. */
export function includedPaths(text: string): string[] {
  return readConfigEntries(text)
    .entries.filter((entry) => (entry.section === 'include' || entry.section === 'includeif') && entry.key === 'path' && entry.value !== undefined)
    .map((entry) => entry.value!);
}
