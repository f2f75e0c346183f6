// Keys of hook managers and environment tools whose value names a directory put on a search path, or a file sourced or
// run, rather than a command's words (lefthook, mise, rustup's toolchain file).
import path from 'node:path';
import { plainWord } from './tool-file-words.js';

/** How a key's value is read on: a directory whole (`tree`), a file's words, a dotenv file of variables. */
export type ToolKeyReading = 'tree' | 'words' | 'dotenv';

/** A key's value: one quoted string, or an array of them (TOML, YAML flow, JSON), or a plain YAML scalar. */
const KEY_VALUE = String.raw`(\[[^\]]*\]|"(?:[^"\\]|\\.)*"|'[^']*'|[^\s#,}\]]+)`;

/**
 * Keys of hook managers and environment tools that name a directory put on a search path, or a file sourced or run,
 * where the value is not a command's words: lefthook's `source_dir`/`source_dir_local` (where its `scripts:` live),
 * mise's `_.path` (PATH), `_.source` (a script sourced), `_.file` (a dotenv, JSON or YAML file of variables) and
 * `_.python.venv` (its bin/ on PATH), in every spelling (`_.path = [...]`, `_ = { path = ... }`). A value zotbox cannot
 * spell out (a template, a variable) is unresolved.
 */
export function toolKeyNames(
  text: string,
  entryName: string,
  where: (index: number, what: string) => string,
  unresolved: string[],
): { name: string; as: ToolKeyReading; runs?: true; index: number }[] {
  const keys: { key: string; value: string; index: number }[] = [];
  const lineOf = (offset: number) => text.slice(0, offset).split('\n').length - 1;
  const add = (pattern: RegExp) => {
    for (const match of text.matchAll(pattern)) keys.push({ key: match[1]!, value: match[2]!, index: lineOf(match.index) });
  };
  if (/lefthook/iu.test(entryName)) add(new RegExp(String.raw`(?:^|[\s{,])"?(source_dir(?:_local)?)"?\s*[:=]\s*${KEY_VALUE}`, 'gmu'));
  if (/mise/iu.test(entryName)) {
    add(new RegExp(String.raw`(?:^|[\s{,.])_\.(path|source|file|python\.venv)\s*=\s*${KEY_VALUE}`, 'gmu'));
    for (const table of text.matchAll(/(?:^|[\s{,.])_\s*=\s*\{([^}]*)\}|^\s*\[env\._(?:\.(python))?\]((?:\n(?!\s*\[)[^\n]*)*)/gmu)) {
      const body = table[1] ?? table[3] ?? '';
      const offset = table.index + (table[0].length - body.length);
      for (const match of body.matchAll(new RegExp(String.raw`(?:^|[\s{,])(path|source|file|venv)\s*=\s*${KEY_VALUE}`, 'gmu')))
        keys.push({ key: table[2] === undefined ? match[1]! : `python.${match[1]!}`, value: match[2]!, index: lineOf(offset + match.index + match[0].search(/\S/u)) });
    }
    // _.python.venv = { path = ".venv" }: the inline table's path.
    for (const match of text.matchAll(/_\.python\.venv\s*=\s*\{[^}]*\bpath\s*=\s*("[^"]*"|'[^']*')/gu)) keys.push({ key: 'python.venv', value: match[1]!, index: lineOf(match.index) });
  }
  // rustup's toolchain file: `path = "DIR"` is a toolchain whose bin/ every rustup proxy runs from (a PATH directory).
  if (/^rust-toolchain(\.toml)?$/iu.test(entryName)) add(new RegExp(String.raw`(?:^|[\s{,])"?(path)"?\s*=\s*${KEY_VALUE}`, 'gmu'));
  const names: { name: string; as: ToolKeyReading; runs?: true; index: number }[] = [];
  for (const { key, value, index } of keys) {
    if (value.startsWith('{')) continue; // an inline table, read above
    const pieces = value.startsWith('[') ? [...value.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'/gu)].map((m) => m[1] ?? m[2]!) : [value.replace(/^(["'])(.*)\1$/u, '$2')];
    if (value.startsWith('[') && /[^\s[\],]/u.test(value.replace(/"(?:[^"\\]|\\.)*"|'[^']*'/gu, ''))) pieces.push(value);
    for (const raw of pieces) {
      // mise's templates: {{config_root}} is the directory of the configuration; any other is not known now.
      const piece = raw.replace(/\{\{\s*config_root\s*\}\}/gu, '.').replace(/\/+$/u, '');
      if (piece === '' || !plainWord(piece)) {
        unresolved.push(where(index, `: its ${key} names ${JSON.stringify(raw)}, and zotbox cannot work out which file or directory that is`));
        continue;
      }
      if (key === 'path' || key.startsWith('source_dir')) names.push({ name: piece, as: 'tree', index });
      else if (key === 'python.venv' || key === 'venv') names.push({ name: path.join(piece, 'bin'), as: 'tree', index }, { name: path.join(piece, 'Scripts'), as: 'tree', index });
      else if (key === 'source') names.push({ name: piece, as: 'words', runs: true, index });
      else names.push({ name: piece, as: /\.(json|ya?ml|toml)$/iu.test(piece) ? 'words' : 'dotenv', index });
    }
  }
  return names;
}
