// Unconfined, what a program loads (its #! interpreters, nested; its ELF loader and
// the libraries its RUNPATH finds first) must not be a file the agent could change
// (adv27d). Confined, the sandbox bounds it. Outcomes by hand; ELF programs built
// with the real cc.
import test, { type ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { compileScopes } from '../../src/policy/scopes.js';
import { decideShellCommand, type ShellContext } from '../../src/policy/shell-decision.js';
import { writeStubProgram } from '../fixtures/stub-program.js';
import { tempDir } from '../fixtures/temp.js';

function world(t: ExecutionContext) {
  const root = realpathSync(tempDir(t, 'zb-loads-'));
  const bin = path.join(root, 'bin');
  const ws = path.join(root, 'ws');
  const tools = path.join(root, 'tools');
  for (const directory of [bin, ws, tools]) mkdirSync(directory);
  const scopes = compileScopes({ read: ['${workspace}'], write: ['${workspace}'] }, { workspace: ws, agentData: path.join(root, 'data') });
  const context: ShellContext = { mode: 'allowlist', allow: ['jq'], scopes, searchPath: [bin], trustedDirectories: [bin] };
  const executable = (file: string, text: string) => {
    writeFileSync(file, text);
    chmodSync(file, 0o755);
  };
  return { root, bin, ws, tools, context, executable };
}

function codeOf(context: ShellContext): string {
  const decision = decideShellCommand('jq .', context);
  return decision.allow ? 'allow' : decision.code;
}

/** Builds `program` needing libhelper.so.1, with the given RUNPATH; the library itself in `libraryDirectory`. */
function buildWithRunpath(root: string, program: string, runpath: string, libraryDirectory: string): void {
  mkdirSync(libraryDirectory, { recursive: true });
  writeFileSync(path.join(root, 'helper.c'), 'int helper(void) { return 0; }\n');
  writeFileSync(path.join(root, 'main.c'), 'int helper(void);\nint main(void) { return helper(); }\n');
  execFileSync('cc', ['-shared', '-fPIC', '-Wl,-soname,libhelper.so.1', '-o', path.join(libraryDirectory, 'libhelper.so.1'), path.join(root, 'helper.c')]);
  execFileSync('cc', ['-o', program, path.join(root, 'main.c'), '-L', libraryDirectory, '-l:libhelper.so.1', '-Wl,--enable-new-dtags', `-Wl,-rpath,${runpath}`]);
}

test('unconfined, a script whose #! interpreter is a link into the workspace is denied, naming it', (t) => {
  const { bin, ws, tools, context, executable } = world(t);
  writeStubProgram(path.join(ws, 'interp'));
  symlinkSync(path.join(ws, 'interp'), path.join(tools, 'interp'));
  executable(path.join(bin, 'jq'), `#!${path.join(tools, 'interp')}\n`);
  const decision = decideShellCommand('jq .', context);
  t.false(decision.allow);
  if (decision.allow) return;
  t.is(decision.code, 'ZB_POLICY_SHELL_PROGRAM');
  t.true(decision.reason.includes(`${path.join(tools, 'interp')} is a link leading to ${path.join(ws, 'interp')}`), decision.reason);
  t.is(codeOf({ ...context, confined: true }), 'allow', 'confined, the sandbox bounds it');
});

test('unconfined, an interpreter that is itself a script leading into the workspace is denied (nested #!)', (t) => {
  const { bin, ws, tools, context, executable } = world(t);
  writeStubProgram(path.join(ws, 'inner'));
  executable(path.join(tools, 'outer'), `#!${path.join(ws, 'inner')}\n`);
  executable(path.join(bin, 'jq'), `#!${path.join(tools, 'outer')}\n`);
  t.is(codeOf(context), 'ZB_POLICY_SHELL_PROGRAM');
});

test('unconfined, a #! interpreter written as a relative path is denied', (t) => {
  const { bin, context, executable } = world(t);
  executable(path.join(bin, 'jq'), '#!interp\n');
  t.is(codeOf(context), 'ZB_POLICY_SHELL_PROGRAM');
});

test('unconfined, a script whose interpreter chain stays outside the write scopes is allowed', (t) => {
  const { bin, tools, context, executable } = world(t);
  writeStubProgram(path.join(tools, 'interp'));
  executable(path.join(bin, 'jq'), `#!${path.join(tools, 'interp')} -x\n`);
  t.is(codeOf(context), 'allow');
});

test('unconfined, an ELF program with a relative or empty RUNPATH entry is denied', (t) => {
  for (const runpath of ['lib', '$ORIGIN/../lib:']) {
    const { root, bin, tools, context } = world(t);
    buildWithRunpath(root, path.join(bin, 'jq'), runpath, path.join(tools, 'lib'));
    t.is(codeOf(context), 'ZB_POLICY_SHELL_PROGRAM', runpath);
  }
});

test('unconfined, an ELF program whose $ORIGIN RUNPATH leads through a link into the workspace is denied', (t) => {
  const { root, ws, tools, context } = world(t);
  const home = path.join(tools, 'home');
  mkdirSync(path.join(home, 'bin'), { recursive: true });
  buildWithRunpath(root, path.join(home, 'bin', 'jq'), '$ORIGIN/../lib:$ORIGIN/../real-lib', path.join(home, 'real-lib'));
  symlinkSync(path.join(ws, 'lib'), path.join(home, 'lib'));
  t.is(codeOf({ ...context, searchPath: [path.join(home, 'bin')], trustedDirectories: [path.join(home, 'bin')] }), 'ZB_POLICY_SHELL_PROGRAM');
});

test('unconfined, a library the RUNPATH finds that is itself a link into the workspace is denied; outside, allowed', (t) => {
  const { root, ws, tools, context } = world(t);
  const home = path.join(tools, 'home');
  mkdirSync(path.join(home, 'bin'), { recursive: true });
  const search = { ...context, searchPath: [path.join(home, 'bin')], trustedDirectories: [path.join(home, 'bin')] };
  buildWithRunpath(root, path.join(home, 'bin', 'jq'), '$ORIGIN/../lib', path.join(home, 'lib'));
  t.is(codeOf(search), 'allow', 'the library in the tool home, outside the scopes');
  writeStubProgram(path.join(ws, 'libhelper.so.1'));
  execFileSync('mv', [path.join(home, 'lib', 'libhelper.so.1'), path.join(tools, 'moved.so')]);
  symlinkSync(path.join(ws, 'libhelper.so.1'), path.join(home, 'lib', 'libhelper.so.1'));
  t.is(codeOf(search), 'ZB_POLICY_SHELL_PROGRAM');
});

test('unconfined, an ELF program whose loader (PT_INTERP) is a link into the workspace is denied', (t) => {
  const { root, bin, ws, tools, context } = world(t);
  writeFileSync(path.join(root, 'main.c'), 'int main(void) { return 0; }\n');
  symlinkSync(path.join(ws, 'ld.so'), path.join(tools, 'ld.so'));
  execFileSync('cc', ['-o', path.join(bin, 'jq'), path.join(root, 'main.c'), `-Wl,--dynamic-linker,${path.join(tools, 'ld.so')}`]);
  t.is(codeOf(context), 'ZB_POLICY_SHELL_PROGRAM');
});
