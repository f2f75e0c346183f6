// Where `git rev-parse --show-toplevel` leads from a script's working directory (repository-top.ts). Real folders;
// expected tops written out by hand.
import test from 'ava';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repositoryTopOf } from '../../../../src/host/executors/confine/repository-top.js';
import { tempDir } from '../../../fixtures/temp.js';

function layout(t: Parameters<typeof tempDir>[0]): string {
  const top = realpathSync(tempDir(t, 'zb-repo-top-'));
  mkdirSync(path.join(top, 'repo/.git'), { recursive: true });
  mkdirSync(path.join(top, 'repo/web/src'), { recursive: true });
  mkdirSync(path.join(top, 'repo/vendor/lib'), { recursive: true });
  writeFileSync(path.join(top, 'repo/vendor/lib/.git'), 'gitdir: ../../.git/modules/lib\n');
  mkdirSync(path.join(top, 'plain'), { recursive: true });
  return top;
}

test("a script's folder inside a repository: the repository's top, also from a subfolder", (t) => {
  const top = layout(t);
  t.is(repositoryTopOf(path.join(top, 'repo'), [path.join(top, 'repo')]), path.join(top, 'repo'));
  t.is(repositoryTopOf(path.join(top, 'repo/web/src'), [path.join(top, 'repo')]), path.join(top, 'repo'));
});

test('a repository nested below a top git runs hooks at (a submodule): zotbox cannot tell which top git gives', (t) => {
  const top = layout(t);
  t.is(repositoryTopOf(path.join(top, 'repo/vendor/lib'), [path.join(top, 'repo')]), null);
  // Where no outer top is known, the nearest is the answer.
  t.is(repositoryTopOf(path.join(top, 'repo/vendor/lib'), []), path.join(top, 'repo/vendor/lib'));
});

test('no repository above: zotbox cannot tell (git gives none)', (t) => {
  const top = layout(t);
  t.is(repositoryTopOf(path.join(top, 'plain'), []), null);
});
