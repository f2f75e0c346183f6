// Git configuration an environment file gives (an .envrc or the dotenv file it loads, tool-file-references.ts): git
// reads GIT_CONFIG_COUNT with GIT_CONFIG_KEY_n/GIT_CONFIG_VALUE_n, GIT_CONFIG_PARAMETERS, and the files
// GIT_CONFIG_GLOBAL, GIT_CONFIG_SYSTEM and GIT_CONFIG name as configuration, in every shell direnv sets them for. Each
// entry is read as the repository's config is: a key git never runs (git-config-lines.ts DATA_KEYS) names nothing;
// any other value's words are what git runs or reads (core.hooksPath's directory, an editor's script, an include's
// file, read as configuration in turn), each relative name from the file's directory and from the top of every
// repository there (GitEnvironmentPlace). Closed world: a pair or a value the file does not spell out is unresolved.

import { existsSync } from 'node:fs';
import path from 'node:path';
import { isInsideRoot } from '../../../policy/scopes.js';
import { commandWords, isDataEntry } from './git-config-lines.js';
import { type ConfigEntry, entryName, readConfigEntries, spelledEntry } from './git-config-text.js';
import { isUnspellable } from './git-pointer-text.js';
import { OVERSIZED, readSmallFile } from './git-inventory.js';
import { CLIMB_REASON, climbsOutOfName } from './lexical-climb.js';
import { expandUserPath } from './user-path-expansion.js';

/** Variables naming a file git reads as configuration. */
const CONFIG_FILES = ['GIT_CONFIG_GLOBAL', 'GIT_CONFIG_SYSTEM', 'GIT_CONFIG'];
/** How deep includes are followed before the rest is unresolved. */
const MAX_INCLUDES = 4;

/** A path git's configuration names: `value` is read as words where it is a file, protected whole otherwise. */
export interface GitEnvironmentName {
  readonly name: string;
  /** `hooks`: a hooks directory (core.hooksPath): protected whole, and each hook in it read as the script it is. */
  readonly as: 'words' | 'value' | 'hooks';
  readonly why: string;
  /** For `hooks`: the tops git runs them at (each hook's relative words are taken from there). */
  readonly tops?: readonly string[];
}

/**
 * `section.sub.key` with its value as a config entry, split as git_config_parse_key splits it (section first, key last;
 * section letters, digits and "-", the key a letter then those); undefined for a key git refuses.
 */
function entryOf(key: string, value: string | undefined): ConfigEntry | undefined {
  const first = key.indexOf('.');
  const last = key.lastIndexOf('.');
  if (first === -1 || !/^[A-Za-z0-9-]*$/u.test(key.slice(0, first)) || !/^[A-Za-z][A-Za-z0-9-]*$/u.test(key.slice(last + 1)) || key.includes('\n')) return undefined;
  const subsection = first === last ? undefined : key.slice(first + 1, last);
  return { section: key.slice(0, first).toLowerCase(), subsection, key: key.slice(last + 1).toLowerCase(), value, line: 0, written: key };
}

/**
 * Where git takes the relative names of configuration from in the shells an environment file sets up: the file's
 * directory (direnv runs it there; a command git runs without a repository runs there), and the top of every
 * repository git may run in there (git moves to the top before it runs a hook, a command value or an alias), the one
 * holding the directory and each below it.
 */
export interface GitEnvironmentPlace {
  readonly directory: string;
  readonly tops: readonly string[];
  /** Variables the file spelled from $PWD (an absolute path where direnv runs it), not as a relative path. */
  readonly fromWorkingDirectory: ReadonlySet<string>;
}

/**
 * The tops of the repositories an environment file in `directory` applies to: of `known` (each repository zotbox
 * found), those holding `directory` or below it; and the one git finds above it (the nearest `.git`).
 */
export function repositoryTops(directory: string, known: readonly string[]): string[] {
  const tops = new Set(known.filter((top) => isInsideRoot(directory, top) || isInsideRoot(top, directory)));
  for (let at = directory; ; at = path.dirname(at)) {
    if (existsSync(path.join(at, '.git'))) {
      tops.add(at);
      break;
    }
    if (path.dirname(at) === at) break;
  }
  return [...tops];
}

/** A relative name git takes from every anchor of the place (all counted: more protection, never less). */
function anchored(name: string, place: GitEnvironmentPlace): string[] {
  return path.isAbsolute(name) ? [name] : [...new Set([place.directory, ...place.tops].map((base) => path.resolve(base, name)))];
}

/** What one entry names: nothing for data; else every word of its value (a command git runs, a path it reads), from each anchor. */
function entryNames(entry: ConfigEntry, from: string, directory: string, place: GitEnvironmentPlace, unresolved: string[], depth: number): GitEnvironmentName[] {
  if (isDataEntry(entry) || entry.value === undefined) return [];
  if (isUnspellable(entry.value)) {
    unresolved.push(`${from}: ${entry.written} has a value that is not UTF-8, so zotbox cannot tell which file it names`);
    return [];
  }
  const why = `git reads ${entry.written} from ${from}`;
  const names: GitEnvironmentName[] = [];
  for (const word of commandWords(entry.value, 'shell')) {
    if (word.kind === 'unresolved') unresolved.push(`${from}: ${entry.written} names ${JSON.stringify(word.text)}, which ${word.why}`);
    else if (word.anchor === 'plain')
      // A hooks directory's hooks run what they name, from the worktree top (as the repository's own hooks are read).
      for (const name of anchored(word.text, place))
        names.push(entryName(entry) === 'core.hookspath' ? { name, as: 'hooks', why, tops: place.tops.length > 0 ? place.tops : [place.directory] } : { name, as: 'value', why });
    else unresolved.push(`${from}: ${entry.written} names ${JSON.stringify(word.text)}, outside what zotbox reads here`);
  }
  // An include's file is configuration too, as git's interpolate_path makes the path (`%(prefix)/`; a `~` is
  // unresolved above), relative to the file that includes it.
  if (entryName(entry) === 'include.path' || (entry.section === 'includeif' && entry.key === 'path')) {
    const included = entry.value.startsWith('~') ? undefined : expandUserPath(entry.value, '');
    if (included !== undefined && 'problem' in included) unresolved.push(`${from}: ${entry.written} ${included.problem}`);
    else if (included !== undefined && climbsOutOfName(included.path)) unresolved.push(`${from}: ${entry.written} includes ${JSON.stringify(entry.value)}: ${CLIMB_REASON}`);
    else if (included !== undefined) names.push(...configFileNames(path.resolve(directory, included.path), `${from} (${entry.written})`, place, unresolved, depth + 1));
  }
  return names;
}

/** A config file git reads: the file itself, and what its entries name. */
function configFileNames(file: string, from: string, place: GitEnvironmentPlace, unresolved: string[], depth: number): GitEnvironmentName[] {
  const names: GitEnvironmentName[] = [{ name: file, as: 'words', why: `git reads it as configuration (${from})` }];
  if (depth > MAX_INCLUDES) {
    unresolved.push(`${file}: git includes more configuration files than zotbox reads (${from})`);
    return names;
  }
  const text = readSmallFile(file, 'latin1');
  if (text === OVERSIZED) unresolved.push(`${file} is larger than zotbox reads, and git reads it as configuration (${from})`);
  else if (text !== undefined) {
    const reading = readConfigEntries(text);
    if (reading.badLine !== undefined) unresolved.push(`git cannot read ${file} past line ${reading.badLine} ("bad config line"), so zotbox cannot tell what the rest names (${from})`);
    for (const entry of reading.entries.map(spelledEntry)) names.push(...entryNames(entry, `${file} line ${entry.line}`, path.dirname(file), place, unresolved, depth));
  }
  return names;
}

/** A single-quoted word at `text[at]` as git's sq_dequote_step reads it (`'\''` and `'\!'` resume the quote): its text and end. */
function quotedStep(text: string, at: number): { readonly word: string; readonly end: number } | undefined {
  if (text[at] !== "'") return undefined;
  let word = '';
  for (let i = at + 1; i < text.length; i++) {
    if (text[i] !== "'") {
      word += text[i]!;
      continue;
    }
    if (text[i + 1] === '\\' && (text[i + 2] === "'" || text[i + 2] === '!') && text[i + 3] === "'") {
      word += text[i + 2]!;
      i += 3;
      continue;
    }
    return { word, end: i + 1 };
  }
  return undefined;
}

const SPACE = /^[ \t\n\v\f\r]$/u;

/**
 * GIT_CONFIG_PARAMETERS as git's parse_config_env_list reads it (config.c, git 2.31 and later): single-quoted words
 * separated by blanks, each `'key'='value'`, `'key'=` or `'key'` alone (no value: boolean true), or the older one-word
 * `'key=value'` (split at the first "=", the key trimmed). Undefined where git reads it otherwise (it then refuses to run).
 */
export function parameterEntries(text: string): [string, string | undefined][] | undefined {
  const pairs: [string, string | undefined][] = [];
  let at = 0;
  while (at < text.length) {
    const key = quotedStep(text, at);
    if (key === undefined) return undefined;
    at = key.end;
    if (at >= text.length || SPACE.test(text[at]!)) {
      // The older one-word format: git_config_parse_parameter splits at the first "=" and trims the key.
      const equals = key.word.indexOf('=');
      const name = (equals === -1 ? key.word : key.word.slice(0, equals)).replace(/^[ \t\n\v\f\r]+|[ \t\n\v\f\r]+$/gu, '');
      if (name === '') return undefined;
      pairs.push([name, equals === -1 ? undefined : key.word.slice(equals + 1)]);
    } else if (text[at] === '=') {
      at++;
      if (text[at] === "'") {
        const value = quotedStep(text, at);
        if (value === undefined || (value.end < text.length && !SPACE.test(text[value.end]!))) return undefined;
        pairs.push([key.word, value.word]);
        at = value.end;
      } else if (at >= text.length || SPACE.test(text[at]!)) pairs.push([key.word, undefined]);
      else return undefined;
    } else return undefined;
    while (at < text.length && SPACE.test(text[at]!)) at++;
  }
  return pairs;
}

/**
 * What the git configuration `known` (the variables an environment file sets, as it set them) gives names, absolute,
 * from each anchor of `place`; `where` is the file that sets them. What zotbox cannot spell out is pushed to `unresolved`.
 */
export function gitEnvironmentNames(known: ReadonlyMap<string, string>, where: string, place: GitEnvironmentPlace, unresolved: string[]): GitEnvironmentName[] {
  const names: GitEnvironmentName[] = [];
  for (const variable of CONFIG_FILES) {
    const value = known.get(variable);
    if (value === undefined || value === '' || value === '/dev/null') continue;
    // git opens a relative name where it runs: before it moves to the top, that is any directory below this one.
    if (!path.isAbsolute(value) && !place.fromWorkingDirectory.has(variable))
      unresolved.push(`${where}: ${variable} names ${JSON.stringify(value)}, and git reads it relative to the directory it runs in, any directory below ${place.directory}`);
    else names.push(...configFileNames(path.resolve(place.directory, value), `${variable} set in ${where}`, place, unresolved, 0));
  }
  const parameters = known.get('GIT_CONFIG_PARAMETERS');
  if (parameters !== undefined) {
    const pairs = parameterEntries(parameters);
    if (pairs === undefined) unresolved.push(`${where}: git reads GIT_CONFIG_PARAMETERS as configuration, and zotbox cannot read its value`);
    for (const [key, value] of pairs ?? []) {
      const entry = entryOf(key, value);
      if (entry === undefined) unresolved.push(`${where}: GIT_CONFIG_PARAMETERS names the key ${JSON.stringify(key)}, which zotbox cannot read`);
      else names.push(...entryNames(entry, `GIT_CONFIG_PARAMETERS set in ${where}`, place.directory, place, unresolved, 0));
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
    else names.push(...entryNames(entry, `GIT_CONFIG_KEY_${n} set in ${where}`, place.directory, place, unresolved, 0));
  }
  return names;
}

/** An entry the user's own environment gives git, with the variable that sets it. */
export interface EnvironmentEntry {
  readonly entry: ConfigEntry;
  readonly variable: string;
}

/**
 * The git configuration the user's own environment gives every git they run (GIT_CONFIG_PARAMETERS, then
 * GIT_CONFIG_COUNT with GIT_CONFIG_KEY_n/GIT_CONFIG_VALUE_n, as git reads them), and what zotbox cannot read there
 * (git stops on it too: a bogus count, a missing key).
 */
export function environmentConfigEntries(env: Readonly<Record<string, string | undefined>>): { entries: EnvironmentEntry[]; problems: string[] } {
  const entries: EnvironmentEntry[] = [];
  const problems: string[] = [];
  const parameters = env.GIT_CONFIG_PARAMETERS;
  if (parameters !== undefined && parameters !== '') {
    const pairs = parameterEntries(parameters);
    if (pairs === undefined) problems.push("the user's environment sets GIT_CONFIG_PARAMETERS, and zotbox cannot read its value");
    for (const [key, value] of pairs ?? []) {
      const entry = entryOf(key, value);
      if (entry === undefined) problems.push(`the user's environment sets GIT_CONFIG_PARAMETERS with the key ${JSON.stringify(key)}, which zotbox cannot read`);
      else entries.push({ entry, variable: 'GIT_CONFIG_PARAMETERS' });
    }
  }
  const counted = env.GIT_CONFIG_COUNT;
  if (counted === undefined || counted === '') return { entries, problems };
  const count = Number(counted);
  if (!/^\d+$/u.test(counted) || count > 1000) {
    problems.push(`the user's environment sets GIT_CONFIG_COUNT to ${JSON.stringify(counted)}, which zotbox does not read as a count`);
    return { entries, problems };
  }
  for (let n = 0; n < count; n++) {
    const key = env[`GIT_CONFIG_KEY_${n}`];
    const value = env[`GIT_CONFIG_VALUE_${n}`];
    const entry = key === undefined || value === undefined ? undefined : entryOf(key, value);
    if (entry === undefined) problems.push(`the user's environment sets GIT_CONFIG_COUNT to ${count}, and GIT_CONFIG_KEY_${n}/GIT_CONFIG_VALUE_${n} are not both a key and value zotbox can read`);
    else entries.push({ entry, variable: `GIT_CONFIG_KEY_${n}` });
  }
  return { entries, problems };
}
