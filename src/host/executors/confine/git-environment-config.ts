// Git configuration an environment file gives (an .envrc or the dotenv file it loads, tool-file-references.ts): git
// reads GIT_CONFIG_COUNT with GIT_CONFIG_KEY_n/GIT_CONFIG_VALUE_n, GIT_CONFIG_PARAMETERS, and the files
// GIT_CONFIG_GLOBAL, GIT_CONFIG_SYSTEM and GIT_CONFIG name as configuration, in every shell direnv sets them for. Each
// entry is read as the repository's config is: a key git never runs (git-config-lines.ts DATA_KEYS) names nothing;
// any other value's words are what git runs or reads (core.hooksPath's directory, an editor's script, an include's
// file, read as configuration in turn). Closed world: a pair or a value the file does not spell out is unresolved.

import path from 'node:path';
import { type ConfigEntry, commandWords, entryName, isDataEntry, parseConfigEntries } from './git-config-lines.js';
import { OVERSIZED, readSmallFile } from './git-inventory.js';

/** Variables naming a file git reads as configuration. */
const CONFIG_FILES = ['GIT_CONFIG_GLOBAL', 'GIT_CONFIG_SYSTEM', 'GIT_CONFIG'];
/** How deep includes are followed before the rest is unresolved. */
const MAX_INCLUDES = 4;

/** A path git's configuration names: `value` is read as words where it is a file, protected whole otherwise. */
export interface GitEnvironmentName {
  readonly name: string;
  readonly as: 'words' | 'value';
  readonly why: string;
}

/** `section.sub.key=value` as a config entry (the key split as git splits it: section first, key last). */
function entryOf(key: string, value: string): ConfigEntry | undefined {
  const first = key.indexOf('.');
  const last = key.lastIndexOf('.');
  if (first <= 0 || last === key.length - 1) return undefined;
  const subsection = first === last ? undefined : key.slice(first + 1, last);
  return { section: key.slice(0, first).toLowerCase(), subsection, key: key.slice(last + 1).toLowerCase(), value, line: 0, written: key };
}

/** What one entry names: nothing for data; else every word of its value (a command git runs, a path it reads). */
function entryNames(entry: ConfigEntry, from: string, directory: string, unresolved: string[], depth: number): GitEnvironmentName[] {
  if (isDataEntry(entry) || entry.value === undefined) return [];
  const why = `git reads ${entry.written} from ${from}`;
  const names: GitEnvironmentName[] = [];
  for (const word of commandWords(entry.value, 'shell')) {
    if (word.kind === 'unresolved') unresolved.push(`${from}: ${entry.written} names ${JSON.stringify(word.text)}, which ${word.why}`);
    else if (word.anchor === 'plain') names.push({ name: word.text, as: 'value', why });
    else unresolved.push(`${from}: ${entry.written} names ${JSON.stringify(word.text)}, outside what zotbox reads here`);
  }
  // An include's file is configuration too.
  if (entryName(entry) === 'include.path' || (entry.section === 'includeif' && entry.key === 'path'))
    names.push(...configFileNames(path.resolve(directory, entry.value), `${from} (${entry.written})`, unresolved, depth + 1));
  return names;
}

/** A config file git reads: the file itself, and what its entries name. */
function configFileNames(file: string, from: string, unresolved: string[], depth: number): GitEnvironmentName[] {
  const names: GitEnvironmentName[] = [{ name: file, as: 'words', why: `git reads it as configuration (${from})` }];
  if (depth > MAX_INCLUDES) {
    unresolved.push(`${file}: git includes more configuration files than zotbox reads (${from})`);
    return names;
  }
  const text = readSmallFile(file);
  if (text === OVERSIZED) unresolved.push(`${file} is larger than zotbox reads, and git reads it as configuration (${from})`);
  else if (text !== undefined) for (const entry of parseConfigEntries(text)) names.push(...entryNames(entry, `${file} line ${entry.line}`, path.dirname(file), unresolved, depth));
  return names;
}

/** GIT_CONFIG_PARAMETERS's `'key'='value'` pairs, or undefined where it is spelled otherwise. */
function parameterEntries(value: string): [string, string][] | undefined {
  const pairs: [string, string][] = [];
  const rest = value.replace(/\s*'([^']*)'(?:='([^']*)')?\s*/gu, (_, key: string, entry: string | undefined) => {
    pairs.push([key, entry ?? 'true']);
    return '';
  });
  return rest === '' ? pairs : undefined;
}

/**
 * What the git configuration `known` (the variables an environment file sets, as it set them) gives names, relative
 * to `directory` (where git runs in that shell); `where` is the file that sets them. What zotbox cannot spell out is
 * pushed to `unresolved`.
 */
export function gitEnvironmentNames(known: ReadonlyMap<string, string>, where: string, directory: string, unresolved: string[]): GitEnvironmentName[] {
  const names: GitEnvironmentName[] = [];
  for (const variable of CONFIG_FILES) {
    const value = known.get(variable);
    if (value !== undefined && value !== '' && value !== '/dev/null') names.push(...configFileNames(path.resolve(directory, value), `${variable} set in ${where}`, unresolved, 0));
  }
  const parameters = known.get('GIT_CONFIG_PARAMETERS');
  if (parameters !== undefined) {
    const pairs = parameterEntries(parameters);
    if (pairs === undefined) unresolved.push(`${where}: git reads GIT_CONFIG_PARAMETERS as configuration, and zotbox cannot read its value`);
    for (const [key, value] of pairs ?? []) {
      const entry = entryOf(key, value);
      if (entry === undefined) unresolved.push(`${where}: GIT_CONFIG_PARAMETERS names the key ${JSON.stringify(key)}, which zotbox cannot read`);
      else names.push(...entryNames(entry, `GIT_CONFIG_PARAMETERS set in ${where}`, directory, unresolved, 0));
    }
  }
  // GIT_CONFIG_COUNT pairs: each key with its value, all set here; a pair set in part (the rest from outside) is unresolved.
  const counted = [...known.keys()].filter((name) => /^GIT_CONFIG_(COUNT|KEY_\d+|VALUE_\d+)$/u.test(name));
  if (counted.length === 0) return names;
  const count = Number(known.get('GIT_CONFIG_COUNT'));
  if (!Number.isInteger(count) || count < 0 || count > 100) {
    unresolved.push(`${where}: it sets git configuration through GIT_CONFIG_KEY_n/GIT_CONFIG_VALUE_n, and GIT_CONFIG_COUNT is not set to a number here`);
    return names;
  }
  for (let n = 0; n < count; n++) {
    const key = known.get(`GIT_CONFIG_KEY_${n}`);
    const value = known.get(`GIT_CONFIG_VALUE_${n}`);
    const entry = key === undefined || value === undefined ? undefined : entryOf(key, value);
    if (entry === undefined) unresolved.push(`${where}: GIT_CONFIG_COUNT is ${count}, and GIT_CONFIG_KEY_${n}/GIT_CONFIG_VALUE_${n} are not both set to a key and value zotbox can read`);
    else names.push(...entryNames(entry, `GIT_CONFIG_KEY_${n} set in ${where}`, directory, unresolved, 0));
  }
  return names;
}
