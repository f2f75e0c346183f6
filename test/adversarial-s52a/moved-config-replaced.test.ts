// Review s52a, data loss by zotbox (git-aftercare.ts: `before.configTexts.get(file) ?? before.configTexts.get(moved.earlierPath(file))`).
// A config's text before the call is looked up by its PATH first, and by the moved prefix only where that path had
// none. One command moves the user's repository `lib` away and another of the user's repositories, `other`, into its
// place (`mv lib lib2 && mv other lib`; a swap does the same). The git directory now at lib/.git is judged against its
// own record (device+inode), but its config against lib's OLD text: it differs, so other's config is checked as a new
// repository's, fails on any key outside the closed list (pull.rebase, a credential helper, ...), is deleted and
// lib's text written in its place. other's remotes, branches and settings are gone (lib2 keeps lib's text).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, project } from '../adversarial-s36i/harness.js';

function repository(ws: string, name: string, url: string): string {
  execFileSync('git', ['init', '-q', name], { cwd: ws });
  execFileSync('git', ['-C', name, 'config', 'pull.rebase', 'true'], { cwd: ws });
  execFileSync('git', ['-C', name, 'remote', 'add', 'origin', url], { cwd: ws });
  return readFileSync(path.join(ws, name, '.git/config'), 'utf8');
}

/** The config of the git directory holding `marker` (each repository's own description), wherever it went. */
function configOf(ws: string, marker: string): string | undefined {
  for (const top of ['lib', 'lib2', 'other']) {
    const description = path.join(ws, top, '.git/description');
    if (existsSync(description) && readFileSync(description, 'utf8') === marker) return readFileSync(path.join(ws, top, '.git/config'), 'utf8');
  }
  return undefined;
}

function layout(t: import('ava').ExecutionContext, command: string) {
  const ws = project(t, { 'src/app.js': '1;\n', 'one.sh': command });
  const lib = repository(ws, 'lib', 'https://example.com/lib.git');
  const other = repository(ws, 'other', 'https://example.com/other.git');
  execFileSync('sh', ['-c', 'echo lib > lib/.git/description; echo other > other/.git/description'], { cwd: ws });
  return { ws, lib, other };
}

test("moving one repository away and another into its place never gets zotbox to overwrite the second one's config", async (t) => {
  const { ws, lib, other } = layout(t, 'mv lib lib2 && mv other lib\n');
  t.log((await agentWrites(t, ws, 'x.txt', 'x\n', 'sh one.sh')).slice(-1200));
  // SAFE: each git directory keeps its own config.
  t.is(configOf(ws, 'other\n'), other, "other's config");
  t.is(configOf(ws, 'lib\n'), lib, "lib's config");
});

test("swapping two repositories' places never gets zotbox to swap their configs", async (t) => {
  const { ws, lib, other } = layout(t, 'mv lib t && mv other lib && mv t other\n');
  t.log((await agentWrites(t, ws, 'x.txt', 'x\n', 'sh one.sh')).slice(-1200));
  t.is(configOf(ws, 'other\n'), other, "other's config");
  t.is(configOf(ws, 'lib\n'), lib, "lib's config");
});

test('control: moving one repository alone keeps its config', async (t) => {
  const { ws, lib, other } = layout(t, 'mv lib lib2\n');
  await agentWrites(t, ws, 'x.txt', 'x\n', 'sh one.sh');
  t.is(configOf(ws, 'lib\n'), lib, "lib's config");
  t.is(configOf(ws, 'other\n'), other, "other's config");
});
