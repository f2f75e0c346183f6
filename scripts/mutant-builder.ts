// The mutation runner's compiler (a child process of scripts/mutants.ts, run in
// the private copy): one TypeScript builder program kept in memory across
// mutants, so each build after the first re-checks and re-emits only the files a
// patch changed and those whose types depend on them. Same options as
// `npm run build`; a build with errors emits nothing.
import path from 'node:path';
import ts from 'typescript';

export type BuilderReply = { readonly ok: true } | { readonly ok: false; readonly errors: string };

const root = process.cwd();
const config = ts.getParsedCommandLineOfConfigFile(path.join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
if (config === undefined) throw new Error(`cannot read ${path.join(root, 'tsconfig.json')}`);
// noEmitOnError is kept by build() itself, from the builder's diagnostics of the files that changed: passed on to
// TypeScript, it makes every emit re-check the whole program with a fresh checker (a full build's time per mutant).
const options = { ...config.options, noEmitOnError: false };
const host = ts.createIncrementalCompilerHost(options);

// Unchanged files keep their parsed source, so a rebuild parses only what a patch touched.
const parsed = new Map<string, { readonly text: string; readonly file: ts.SourceFile }>();
const readSourceFile = host.getSourceFile.bind(host);
host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
  const text = ts.sys.readFile(fileName);
  const known = parsed.get(fileName);
  if (text !== undefined && known?.text === text) return known.file;
  const file = readSourceFile(fileName, languageVersion, onError, shouldCreate);
  if (file !== undefined && text !== undefined) parsed.set(fileName, { text, file });
  return file;
};

const formatHost: ts.FormatDiagnosticsHost = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' };
let previous: ts.EmitAndSemanticDiagnosticsBuilderProgram | undefined;

function build(): BuilderReply {
  const program = ts.createEmitAndSemanticDiagnosticsBuilderProgram(config!.fileNames, options, host, previous, config!.errors);
  previous = program;
  const diagnostics = [
    ...program.getConfigFileParsingDiagnostics(),
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...program.getSyntacticDiagnostics(),
    ...program.getSemanticDiagnostics(),
  ].filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (diagnostics.length > 0) return { ok: false, errors: ts.formatDiagnostics(diagnostics.slice(0, 5), formatHost) };
  const emitted = program.emit();
  const emitErrors = emitted.diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (emitted.emitSkipped || emitErrors.length > 0) return { ok: false, errors: ts.formatDiagnostics(emitErrors.slice(0, 5), formatHost) || 'emit skipped' };
  return { ok: true };
}

process.on('message', () => process.send?.(build()));
