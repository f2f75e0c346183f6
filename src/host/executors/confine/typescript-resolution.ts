// What the TypeScript runners (tsx, ts-node, bun, deno) load for a relative specifier besides node's own files:
// `./helpers` is helpers.ts (.tsx, .mts, .cts; a directory's index.ts), and `./helpers.js` is helpers.ts when no helpers.js exists
// (TypeScript's ESM convention: the import names the file the compiler will write). Counted whoever runs the program
// (a file protected more is safe; one protected less runs the agent's code). Pure, no I/O.

/** The TypeScript runners' own candidates for a relative specifier: `./x` is x.ts (.tsx .mts .cts), `./x.js` is x.ts when no x.js exists. */
export function typescriptCandidates(specifier: string): string[] {
  const written = /\.([cm]?)js(x?)$/u.exec(specifier);
  if (written !== null) {
    const stem = specifier.slice(0, written.index);
    const [, module = '', jsx = ''] = written;
    return [`${stem}.${module}ts${jsx}`, ...(module === '' && jsx === '' ? [`${stem}.tsx`] : [])];
  }
  if (/\.[cm]?tsx?$/u.test(specifier)) return [];
  const base = specifier.replace(/\/+$/u, '');
  // The directory itself (`node .`): its index files.
  if (/^\.{1,2}$/u.test(base)) return ['.ts', '.tsx', '.mts', '.cts'].map((extension) => `${base}/index${extension}`);
  // A directory's index.ts: the caller protects a relative specifier's directory whole already.
  return ['.ts', '.tsx', '.mts', '.cts'].map((extension) => `${base}${extension}`);
}
