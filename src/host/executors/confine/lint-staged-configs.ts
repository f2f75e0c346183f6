// The commands lint-staged's configuration lists: it runs each (execa with `preferLocal`) with node_modules/.bin first
// on PATH, from the configuration's directory, so a bare name there is a bin of node_modules/.bin (node-bin-runs.ts,
// `pathHasBin`). Read where the format is plain: `.lintstagedrc` (JSON or YAML), `.lintstagedrc.json|yaml|yml`,
// package.json's "lint-staged" key, and the string literals of a JavaScript configuration. What is not read here stays
// read as words (tool-file-references.ts): never less than before. Pure but for packageConfigs' reads.

import { readFileSync } from 'node:fs';
import path from 'node:path';

/** A command a configuration lists, with the line (0-based) it is on. */
export interface LintStagedCommand {
  readonly text: string;
  readonly line: number;
}

/** lint-staged's own configuration files (lilconfig's names), by their name. */
const CONFIG_FILE = /^(?:\.lintstagedrc(?:\.(?:json|ya?ml|[cm]?js))?|lint-staged\.config\.[cm]?js)$/u;
const SCRIPT_FILE = /\.[cm]?js$/u;

/** Whether `file` is one of lint-staged's configuration files. */
export const isLintStagedConfig = (file: string) => CONFIG_FILE.test(path.basename(file));

/** The commands of a lint-staged configuration file `file` holding `text`. */
export function lintStagedCommands(file: string, text: string): LintStagedCommand[] {
  if (SCRIPT_FILE.test(file)) return scriptLiterals(text);
  const json = jsonCommands(text);
  return json ?? yamlCommands(text);
}

/** The commands of package.json's "lint-staged" key, or none where it has none (or is no JSON: npm cannot read it either). */
export function packageCommands(text: string): LintStagedCommand[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  const config = (parsed as Record<string, unknown> | null)?.['lint-staged'];
  return config === undefined ? [] : valueCommands(config, text);
}

/** The package.json files at and above `directory` (lint-staged looks its configuration up from where it runs). */
export function packageConfigs(directory: string): { readonly file: string; readonly text: string }[] {
  const found: { file: string; text: string }[] = [];
  for (let at = path.resolve(directory); ; at = path.dirname(at)) {
    const file = path.join(at, 'package.json');
    try {
      found.push({ file, text: readFileSync(file, 'utf8') });
    } catch {
      // None there (or none zotbox may read): lint-staged finds no configuration in it either; .lintstagedrc is a tool file.
    }
    if (path.dirname(at) === at) return found;
  }
}

/** A JSON configuration's commands; undefined where the text is no JSON. */
function jsonCommands(text: string): LintStagedCommand[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  return valueCommands(parsed, text);
}

/** Every string an object's values hold (a command, or an array of them), each on the first line that spells it. */
function valueCommands(config: unknown, text: string): LintStagedCommand[] {
  if (config === null || typeof config !== 'object') return [];
  const strings = Object.values(config).flatMap((value) => (typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((item) => typeof item === 'string') : []));
  const lines = text.split('\n');
  return strings.map((command) => ({
    text: command,
    line: Math.max(
      0,
      lines.findIndex((line) => line.includes(JSON.stringify(command).slice(1, -1))),
    ),
  }));
}

/** A YAML configuration's commands: `PATTERN: command`, `PATTERN: [a, b]`, and `- command` items, quoted or plain. */
function yamlCommands(text: string): LintStagedCommand[] {
  const commands: LintStagedCommand[] = [];
  for (const [line, raw] of text.split('\n').entries()) {
    const item = /^\s*-\s+(.+)$/u.exec(raw)?.[1] ?? /^\s*(?:"[^"]*"|'[^']*'|[^\s:#][^:#]*?)\s*:\s+(\S.*)$/u.exec(raw)?.[1];
    if (item === undefined || /^[|>]/u.test(item)) continue;
    const values = item.startsWith('[') ? [...item.matchAll(/"((?:[^"\\]|\\.)*)"|'((?:[^']|'')*)'|([^,[\]\s][^,[\]]*)/gu)].map((m) => m[0].trim()) : [item];
    for (const value of values) commands.push({ text: scalar(value), line });
  }
  return commands;
}

/** A YAML scalar as written: "..." (JSON's escapes), '...' ('' a quote), or plain (a comment after it dropped). */
function scalar(value: string): string {
  const trimmed = value.trim();
  if (trimmed.startsWith('"')) {
    try {
      return JSON.parse(trimmed.replace(/^("(?:[^"\\]|\\.)*")[\s\S]*$/u, '$1')) as string;
    } catch {
      return trimmed.slice(1);
    }
  }
  if (trimmed.startsWith("'")) return trimmed.slice(1, trimmed.lastIndexOf("'") > 0 ? trimmed.lastIndexOf("'") : undefined).replace(/''/gu, "'");
  return trimmed.replace(/\s+#.*$/u, '');
}

/**
 * A JavaScript configuration's string literals ('…', "…", `…` with each ${…} a word of its own): each may be a command
 * or what a function there returns. One with an unbalanced quote is no command lint-staged would split (left to words).
 */
function scriptLiterals(text: string): LintStagedCommand[] {
  const commands: LintStagedCommand[] = [];
  for (const match of text.matchAll(/"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\]|\\.)*)`/gu)) {
    const literal = (match[1] ?? match[2] ?? match[3] ?? '').replace(/\$\{[^}]*\}/gu, ' tool-argument ').replace(/\\(.)/gu, '$1');
    if ((literal.split('"').length - 1) % 2 === 1 || (literal.split("'").length - 1) % 2 === 1) continue;
    commands.push({ text: literal, line: text.slice(0, match.index).split('\n').length - 1 });
  }
  return commands;
}
