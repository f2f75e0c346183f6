// Names that are not UTF-8 (undecodable-names.ts): Node spells paths as strings, so an entry whose name is not UTF-8
// cannot be reached by the name a listing gives. The walk sets such names apart instead of passing over them; before a
// call they refuse it; after one, they go aside by their bytes to a name zotbox can spell, and what they hold is judged.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ZotboxError } from '../../../../src/errors.js';
import { scanGitMetadata } from '../../../../src/host/executors/confine/git-inventory.js';
import { beginGitStateCheck } from '../../../../src/host/executors/confine/git-state-check.js';
import { agentWrites } from '../../../adversarial-s36i/harness.js';
import { tempDir } from '../../../fixtures/temp.js';

/** `bash -c` in `cwd`, which must succeed (bash spells bytes that are not UTF-8 with $'\xff'). */
function sh(cwd: string, command: string): void {
  const ran = spawnSync('bash', ['-c', command], { cwd, encoding: 'utf8' });
  if (ran.status !== 0) throw new Error(`${command}: ${ran.stderr}`);
}

/** Every path below `root` whose name is not UTF-8, found by bytes. */
function undecodableBelow(root: string): string[] {
  const found: string[] = [];
  const visit = (directory: Buffer) => {
    for (const name of readdirSync(directory, { encoding: 'buffer', withFileTypes: true })) {
      const full = Buffer.concat([directory, Buffer.from('/'), name.name]);
      if (!Buffer.from(name.name.toString('utf8')).equals(name.name)) found.push(full.toString('latin1'));
      if (name.isDirectory()) visit(full);
    }
  };
  visit(Buffer.from(root));
  return found;
}

test('the walk reports a name that is not UTF-8 by its bytes, and still walks a real U+FFFD name', (t) => {
  const ws = realpathSync(tempDir(t, 'zb-undecodable-'));
  sh(ws, `git init -q $'\\xff/r'`);
  // A real U+FFFD in a name (valid UTF-8, spelled apart from the bad byte's reading) is an ordinary name.
  sh(ws, `git init -q '${path.join(ws, 'ok\uFFFD', 'r')}'`);
  const inventory = scanGitMetadata([ws]);
  t.deepEqual(
    inventory.undecodable.map((entry) => [entry.path.toString('latin1'), entry.directory]),
    [[`${ws}/\xff`, true]],
  );
  t.deepEqual([...inventory.gitEntries.keys()], [path.join(ws, 'ok\uFFFD', 'r', '.git')]);
});

test('a write scope holding a name that is not UTF-8 refuses an unconfined call or a file tool before anything runs', (t) => {
  const ws = realpathSync(tempDir(t, 'zb-undecodable-'));
  sh(ws, `mkdir $'caf\\xe9'`);
  const error = t.throws(() => beginGitStateCheck({ readRoots: [], writeRoots: [ws] }), { instanceOf: ZotboxError });
  t.is(error.code, 'ZB_CONFINEMENT_BIND_UNSAFE');
  t.true(error.message.includes(`${ws}/caf\uFFFD (bytes: ${JSON.stringify(`${ws}/caf\xe9`)}) has a name that is not UTF-8`), error.message);
});

test('a write scope holding a name that is not UTF-8 refuses a confined call and a write, naming it', async (t) => {
  const ws = path.join(realpathSync(tempDir(t, 'zb-undecodable-')), 'ws');
  mkdirSync(ws);
  sh(ws, `mkdir $'caf\\xe9'`);
  writeFileSync(path.join(ws, 'run.sh'), 'touch ran\n');
  const output = await agentWrites(t, ws, 'notes.txt', 'hello\n', 'sh run.sh');
  t.false(existsSync(path.join(ws, 'notes.txt')));
  t.false(existsSync(path.join(ws, 'ran')));
  t.regex(output, /write notes\.txt — failed: command refused: \S+ \(bytes: [^)]*\) has a name that is not UTF-8/u);
  t.regex(output, /bash sh run\.sh — failed: command refused: \S+ \(bytes: [^)]*\) has a name that is not UTF-8/u);
});

test('names a command left that are not UTF-8 go aside by their bytes, one inside another too, and what they hold is judged', (t) => {
  const ws = realpathSync(tempDir(t, 'zb-undecodable-'));
  writeFileSync(path.join(ws, 'README'), 'the user\n');
  const check = beginGitStateCheck({ readRoots: [], writeRoots: [ws] });
  // A repository with a hook two folders down, each folder's name not UTF-8.
  sh(ws, `git init -q $'\\xff/\\xfe/r' && printf '#!/bin/sh\\nexit 0\\n' > $'\\xff/\\xfe/r/.git/hooks/pre-commit'`);
  const error = t.throws(() => check.finish(), { instanceOf: ZotboxError });
  t.is(error.code, 'ZB_CONFINEMENT_GIT_PROGRAM');
  // Nothing is left that zotbox cannot spell; the two folders are zotbox-renamed-1 and, inside it, zotbox-renamed-1.
  t.deepEqual(undecodableBelow(ws), []);
  t.true(existsSync(path.join(ws, 'zotbox-renamed-1', 'zotbox-renamed-1', 'r')));
  // The hook was judged: its repository set aside whole, so git opens no repository with it.
  t.false(existsSync(path.join(ws, 'zotbox-renamed-1', 'zotbox-renamed-1', 'r', '.git')));
  t.regex(error.message, /zotbox-renamed-1\/zotbox-renamed-1\/r\/\.git\/hooks\/pre-commit \(a file git does not write as data/u);
});

test("a user's file whose name is not UTF-8 refuses the call too: a config, hook or tool file naming it would be read as another path", (t) => {
  const ws = realpathSync(tempDir(t, 'zb-undecodable-'));
  sh(ws, `printf 'x' > $'caf\\xe9.inc'`);
  const error = t.throws(() => beginGitStateCheck({ readRoots: [], writeRoots: [ws] }), { instanceOf: ZotboxError });
  t.is(error.code, 'ZB_CONFINEMENT_BIND_UNSAFE');
  t.true(error.message.includes(`${ws}/caf\uFFFD.inc (bytes: ${JSON.stringify(`${ws}/caf\xe9.inc`)}) has a name that is not UTF-8`), error.message);
});

test('a file the command named in bytes that are not UTF-8 goes aside too (a shell would read its name as bytes)', (t) => {
  const ws = realpathSync(tempDir(t, 'zb-undecodable-'));
  const check = beginGitStateCheck({ readRoots: [], writeRoots: [ws] });
  sh(ws, `printf 'x' > $'-\\xff'`);
  const error = t.throws(() => check.finish(), { instanceOf: ZotboxError });
  t.is(error.code, 'ZB_CONFINEMENT_NAME_UNSAFE');
  t.deepEqual(undecodableBelow(ws), []);
  t.true(existsSync(path.join(ws, 'zotbox-renamed-1')));
});

test('names that are not UTF-8 nested deeper than any fixed number of rounds all go aside', (t) => {
  const ws = realpathSync(tempDir(t, 'zb-undecodable-'));
  const check = beginGitStateCheck({ readRoots: [], writeRoots: [ws] });
  const deep = Array.from({ length: 12 }, () => "$'\\xff'").join('/');
  sh(ws, `mkdir -p ${deep} && git init -q ${deep}/r && printf '#!/bin/sh\\nexit 0\\n' > ${deep}/r/.git/hooks/pre-commit`);
  const error = t.throws(() => check.finish(), { instanceOf: ZotboxError });
  t.is(error.code, 'ZB_CONFINEMENT_GIT_PROGRAM');
  t.deepEqual(undecodableBelow(ws), []);
  t.regex(error.message, /(zotbox-renamed-1\/){12}r\/\.git\/hooks\/pre-commit \(a file git does not write as data/u);
});

test("a user's gitfile or .git link whose text is not UTF-8 refuses the call: zotbox cannot follow it to what git opens", (t) => {
  const ws = realpathSync(tempDir(t, 'zb-undecodable-'));
  sh(ws, `mkdir a b && printf 'gitdir: ../st\\xf6re/a\\n' > a/.git && ln -s $'../st\\xf6re/b' b/.git`);
  const error = t.throws(() => beginGitStateCheck({ readRoots: [], writeRoots: [ws] }), { instanceOf: ZotboxError });
  t.is(error.code, 'ZB_CONFINEMENT_BIND_UNSAFE');
  t.regex(error.message, /\/(a|b)\/\.git names a directory by a path that is not UTF-8/u);
});

test('a gitfile above the write scope whose text is not UTF-8 leaves zotbox unable to tell the repository: refused, never guessed', (t) => {
  const top = realpathSync(tempDir(t, 'zb-undecodable-'));
  mkdirSync(path.join(top, 'ws'));
  sh(top, `printf 'gitdir: st\\xf6re\\n' > .git`);
  const error = t.throws(() => beginGitStateCheck({ readRoots: [], writeRoots: [path.join(top, 'ws')] }), { instanceOf: ZotboxError });
  t.regex(error.message, new RegExp(`${top}/\\.git names a directory by a path that is not UTF-8`, 'u'));
});
