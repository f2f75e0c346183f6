// adv27d finding 4 (medium): unconfined, the checks walk the path to a program's file
// and read its first bytes, but the dynamic loader then looks up its libraries along
// the binary's RUNPATH/RPATH (and its PT_INTERP), which nothing reads. A RUNPATH entry
// that is relative ("lib", ".", or empty: a known build mistake) is resolved from the
// working directory, the agent's workspace; `$ORIGIN/../lib` leads through the
// toolchain home, whose lib may be a link into the workspace (a developer pointing an
// installed tool at a build tree): program-directories.ts checks links in the program
// directory only. Either way an allowed `jq` loads the agent's library, whose
// constructor runs on the host. The agent writes the library as a versioned name
// (libhelper.so.1: only *.so is a protected name) with git apply of a binary patch.
// Class: what a program looks up on its way to running (the loader's search) leads into
// a write scope.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { runUnconfined, world, type Step, type World } from './unconfined-world.js';

const LIBRARY = 'libhelper.so.1';

function source(w: World, name: string, text: string): string {
  const file = path.join(w.root, name);
  writeFileSync(file, text);
  return file;
}

const cc = (...args: string[]) => execFileSync('cc', args, { stdio: 'pipe' });

/** Builds <root>/tool/bin/jq needing libhelper.so.1 with `runpath`, the real library in tool/real-lib. */
function buildTool(t: ExecutionContext, w: World, runpath: string): string {
  const home = path.join(w.root, 'tool');
  mkdirSync(path.join(home, 'bin'), { recursive: true });
  mkdirSync(path.join(home, 'real-lib'));
  cc('-shared', '-fPIC', `-Wl,-soname,${LIBRARY}`, '-o', path.join(home, 'real-lib', LIBRARY), source(w, 'helper.c', 'int helper(void) { return 0; }\n'));
  const main = source(w, 'main.c', 'int helper(void);\nint main(void) { return helper(); }\n');
  cc('-o', path.join(home, 'bin', 'jq'), main, '-L', path.join(home, 'real-lib'), `-l:${LIBRARY}`, `-Wl,-rpath,${runpath}`);
  t.log(
    execFileSync('readelf', ['-d', path.join(home, 'bin', 'jq')], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => /RUNPATH|NEEDED/.test(line))
      .join('\n'),
  );
  return home;
}

/** The agent's steps: a git binary patch that creates lib/libhelper.so.1 (its constructor writes the marker), applied, then jq. */
function agentSteps(w: World): Step[] {
  const scratch = path.join(w.root, 'scratch');
  mkdirSync(path.join(scratch, 'lib'), { recursive: true });
  const agents = `#include <stdio.h>\n__attribute__((constructor)) static void run(void) { FILE *f = fopen(${JSON.stringify(w.marker)}, "a"); if (f) { fputs("agent library ran on the host\\n", f); fclose(f); } }\nint helper(void) { return 0; }\n`;
  cc('-shared', '-fPIC', `-Wl,-soname,${LIBRARY}`, '-o', path.join(scratch, 'lib', LIBRARY), source(w, 'agents.c', agents));
  const git = (...args: string[]) => execFileSync('git', ['-C', scratch, ...args], { encoding: 'utf8' });
  git('init', '-q');
  git('add', '-A');
  const patch = git('diff', '--cached', '--binary');
  return [{ bash: 'git init -q' }, { write: 'lib.patch', content: patch }, { bash: 'git apply lib.patch' }, { write: 'package.json', content: '{}\n' }, { bash: 'jq . package.json' }];
}

test('a program whose RUNPATH is relative does not load libraries from the workspace unconfined', async (t) => {
  const w = world(t);
  const home = buildTool(t, w, 'lib:$ORIGIN/../real-lib');
  await runUnconfined(t, w, agentSteps(w), [path.join(home, 'bin')]);
  t.false(existsSync(w.marker), existsSync(w.marker) ? readFileSync(w.marker, 'utf8') : '');
});

test('a program whose $ORIGIN RUNPATH leads through a link into the workspace does not load the agent library unconfined', async (t) => {
  const w = world(t);
  const home = buildTool(t, w, '$ORIGIN/../lib:$ORIGIN/../real-lib');
  // The user pointed the tool's lib at the project's build output.
  symlinkSync(path.join(w.workspace, 'lib'), path.join(home, 'lib'));
  await runUnconfined(t, w, agentSteps(w), [path.join(home, 'bin')]);
  t.false(existsSync(w.marker), existsSync(w.marker) ? readFileSync(w.marker, 'utf8') : '');
});
