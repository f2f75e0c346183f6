// Which words of a tool file may name a file (tool-file-references.ts, envrc-lines.ts): pure string checks, no I/O.
// A word that fails them names no file zotbox protects; callers decide whether such a word is unresolved.

/** Words of an assignment's value that spell a path ($PWD and ${PWD} are the file's directory). */
export function valuePaths(value: string): string[] {
  return value.split(/[:\s=,]/u).filter((piece) => pathLike(piece));
}

function pathLike(word: string): boolean {
  // A word holding control characters names no file a tool opens.
  if (word.includes('://') || /[\u0000-\u001f]/u.test(word)) return false;
  // Plain path characters only: a pattern (**/x), a variable or a shebang (#!/bin/sh) spells no file here.
  return word.includes('/') && /^[\w.@+~-]*(\/[\w.@+~-]*)+$/u.test(word) && !word.startsWith('-');
}

/** A word that may name a file, with or without a "/" (`sh check.sh`): plain path characters, not an option. */
export function plainWord(word: string): boolean {
  return word !== '' && !word.startsWith('-') && /^[\p{L}\p{M}\p{N}_.@+~%-]*(\/[\p{L}\p{M}\p{N}_.@+~%-]*)*$/u.test(word);
}
