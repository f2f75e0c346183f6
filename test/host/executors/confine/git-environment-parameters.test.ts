// GIT_CONFIG_PARAMETERS read as git reads it (git-environment-config.ts parameterEntries), checked against the real
// git: for each spelling read, `git config --get KEY` in a child given that variable prints the value derived; for
// each spelling refused, git refuses it too. Expectations are also stated by hand.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { parameterEntries } from '../../../../src/host/executors/confine/git-environment-config.js';
import { tempDir } from '../../../fixtures/temp.js';

/** What the user's git gives for `key` under GIT_CONFIG_PARAMETERS=`text` (undefined: git refuses to read it). */
function gitValue(t: Parameters<typeof tempDir>[0], text: string, key: string): string | null | undefined {
  const cwd = tempDir(t, 'zb-git-params-');
  const run = spawnSync('git', ['config', '--get', key], { cwd, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: cwd, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_PARAMETERS: text } });
  if (run.status === 128) return undefined;
  return run.status === 0 ? run.stdout.replace(/\n$/u, '') : null;
}

for (const [text, expected] of [
  ["'core.hooksPath=tools/githooks'", [['core.hooksPath', 'tools/githooks']]],
  ["'core.hooksPath'='tools/githooks'", [['core.hooksPath', 'tools/githooks']]],
  ["'core.hooksPath =a=b'", [['core.hooksPath', 'a=b']]],
  ["'core.hooksPath= spaced '", [['core.hooksPath', ' spaced ']]],
  ["'core.hooksPath=it'\\''s'", [['core.hooksPath', "it's"]]],
  ["'core.hooksPath=a'\\!'b'", [['core.hooksPath', 'a!b']]],
  [
    "'user.name=x'  'core.hooksPath'='z' ",
    [
      ['user.name', 'x'],
      ['core.hooksPath', 'z'],
    ],
  ],
  ["'core.hooksPath'", [['core.hooksPath', undefined]]],
  ["'core.hooksPath'=", [['core.hooksPath', undefined]]],
  ['', []],
] as const)
  test(`GIT_CONFIG_PARAMETERS=${text} is read as git reads it`, (t) => {
    const pairs = parameterEntries(text);
    t.deepEqual(
      pairs,
      expected.map(([key, value]) => [key, value]),
    );
    const last = expected.at(-1);
    // git prints a key given without a value (boolean true) as an empty line.
    if (last !== undefined) t.is(gitValue(t, text, last[0]), last[1] ?? '');
  });

for (const text of [" 'core.hooksPath=x'", "'core.hooksPath'=x", "'core.hooksPath=a'x", "'core.hooksPath", 'core.hooksPath=x', "'=x'", "'core.hooksPath'='x'y"])
  test(`GIT_CONFIG_PARAMETERS=${text} is refused, as git refuses it`, (t) => {
    t.is(parameterEntries(text), undefined);
    t.is(gitValue(t, text, 'core.hooksPath'), undefined);
  });
