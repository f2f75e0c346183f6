// adv27d finding 4 (medium): unconfined, the checks walk the path to a program's file
// and read its first bytes, but the dynamic loader then looks up its libraries along
// the binary's RUNPATH/RPATH (and its PT_INTERP), which nothing reads. A RUNPATH entry
// that is relative ("lib", ".", or empty, a known build mistake) is resolved from the
// working directory, the agent's workspace; `$ORIGIN/../lib` leads through the
// toolchain home, whose lib may be a link into the workspace (a developer pointing an
// installed tool at a build tree): program-directories.ts checks links in the program
// directory only. Either way an allowed `jq` loads the agent's library, whose
// constructor runs on the host. Class: what a program looks up on its way to running
// (the loader's search) leads into a write scope.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { runUnconfined, world, type World } from './unconfined-world.js';

/** Builds <home>/bin/jq needing libhelper.so with `runpath`, the real library in <home>/real-lib, and the agent's in <workspace>/lib. */
function build(t: ExecutionContext, w: World, runpath: string): string {
  const home = path.join(w.root, 'tool');
  mkdirSync(path.join(home, 'bin'), { recursive: true });
  mkdirSync(path.join(home, 'real-lib'));
  mkdirSync(path.join(w.workspace, 'lib'));
  const source = (name: string, text: string) => {
    const file = path.join(w.root, name);
    writeFileSync(file, text);
    return file;
  };
  const cc = (...args: string[]) => execFileSync('cc', args, { stdio: 'pipe' });
  cc('-shared', '-fPIC', '-o', path.join(home, 'real-lib', 'libhelper.so'), source('helper.c', 'int helper(void) { return 0; }\n'));
  const agents = `#include <stdio.h>\n__attribute__((constructor)) static void run(void) { FILE *f = fopen(${JSON.stringify(w.marker)}, "a"); if (f) { fputs("agent library ran on the host\\n", f); fclose(f); } }\nint helper(void) { return 0; }\n`;
  cc('-shared', '-fPIC', '-o', path.join(w.workspace, 'lib', 'libhelper.so'), source('agents.c', agents));
  cc('-o', path.join(home, 'bin', 'jq'), source('main.c', 'int helper(void);\nint main(void) { return helper(); }\n'), '-L', path.join(home, 'real-lib'), '-lhelper', `-Wl,-rpath,${runpath}`);
  t.log(
    execFileSync('readelf', ['-d', path.join(home, 'bin', 'jq')], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.includes('RUNPATH'))
      .join('\n'),
  );
  return home;
}

test('a program whose RUNPATH is relative does not load libraries from the workspace unconfined', async (t) => {
  const w = world(t);
  const home = build(t, w, 'lib:$ORIGIN/../real-lib');
  const result = await runUnconfined(w, 'jq . package.json', [path.join(home, 'bin')]);
  t.log(result.stdout, result.stderr);
  t.false(existsSync(w.marker), existsSync(w.marker) ? readFileSync(w.marker, 'utf8') : '');
});

test('a program whose $ORIGIN RUNPATH leads through a link into the workspace does not load the agent library unconfined', async (t) => {
  const w = world(t);
  const home = build(t, w, '$ORIGIN/../lib');
  symlinkSync(path.join(w.workspace, 'lib'), path.join(home, 'lib'));
  const result = await runUnconfined(w, 'jq . package.json', [path.join(home, 'bin')]);
  t.log(result.stdout, result.stderr);
  t.false(existsSync(w.marker), existsSync(w.marker) ? readFileSync(w.marker, 'utf8') : '');
});
