// One entry of the mutation list (test/mutations/<name>.patch): header lines
// `# mutant: <what the patch weakens>` and `# tests: <compiled test files>`
// before the first `diff --git` line, then a unified diff against src/ or native/ (the C code, which mutants.ts
// rebuilds with node-gyp). Pure:
// reads no files; a malformed entry is a reason, never a guess.

export interface Mutant {
  readonly name: string;
  readonly description: string;
  /** Compiled test files (dist/test/….test.js), relative to the repository root, that must fail with the patch applied. */
  readonly tests: readonly string[];
}

export type ParsedMutant = { readonly ok: true; readonly mutant: Mutant } | { readonly ok: false; readonly name: string; readonly reason: string };

/** Parses the header of the patch `name` (its file name without .patch) from its text. */
export function parseMutantPatch(name: string, text: string): ParsedMutant {
  const lines = text.split('\n');
  const diffStart = lines.findIndex((line) => line.startsWith('diff --git '));
  if (diffStart < 0) return { ok: false, name, reason: 'it holds no `diff --git` line' };
  let description: string | undefined;
  let tests: string[] | undefined;
  for (const line of lines.slice(0, diffStart)) {
    const field = /^#\s*(mutant|tests):\s*(.*)$/.exec(line);
    if (field === null) continue;
    if (field[1] === 'mutant') description = field[2]!.trim();
    else tests = field[2]!.trim().split(/\s+/).filter(Boolean);
  }
  if (description === undefined || description === '') return { ok: false, name, reason: 'its header has no `# mutant: <what it weakens>` line' };
  if (tests === undefined || tests.length === 0) return { ok: false, name, reason: 'its header has no `# tests: <compiled test files>` line' };
  const unsafe = tests.find((file) => !/^dist\/test\/[\w./-]+\.test\.js$/.test(file) || file.split('/').includes('..'));
  if (unsafe !== undefined) return { ok: false, name, reason: `its tests line names ${JSON.stringify(unsafe)}, not a compiled test file under dist/test/` };
  const outsideSrc = lines.slice(diffStart).find((line) => line.startsWith('diff --git ') && !/^diff --git a\/(src|native)\/\S+ b\/(src|native)\/\S+$/.test(line));
  if (outsideSrc !== undefined) return { ok: false, name, reason: `it changes a file outside src/ and native/ (${outsideSrc})` };
  return { ok: true, mutant: { name, description, tests } };
}
