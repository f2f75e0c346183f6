// Review s40o of issue 21: the configuration files of git hook managers other than pre-commit, lefthook, husky,
// lint-staged and simple-git-hooks are not protected. Each manager installs a `.git/hooks/*` that only runs the
// manager's binary (found on PATH, outside the workspace), and the manager then runs the shell commands its
// project file lists, on every commit: hk (jdx/hk: `hk.pkl`, `step "x" { check = "…" }`), rusty-hook
// (`.rusty-hook.toml`/`rusty-hook.toml`, `[hooks] pre-commit = "…"`), CaptainHook (PHP, `captainhook.json`,
// `"action": "…"`), and a pre-commit compatible runner with its own name (prek reads `.pre-commit-config.yaml`, which
// is protected: control). zotbox reads the hook, finds only the manager's name and protects nothing; the write tool
// rewrites the manager's file. The managers are not installed here: the write that should be refused is asserted.
import test from 'ava';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { agentWrites, project } from '../adversarial-s36i/harness.js';

for (const [manager, hook, file, before, after] of [
  [
    'hk',
    'hk run pre-commit "$@"',
    'hk.pkl',
    'amends "package://github.com/jdx/hk/releases/download/v1.0.0/hk@1.0.0#/Config.pkl"\nhooks { ["pre-commit"] { steps { ["lint"] { check = "cargo fmt --check" } } } }\n',
    'check = "sh -c \\"touch /tmp/PWNED\\""',
  ],
  ['rusty-hook', 'rusty-hook run --hook pre-commit', '.rusty-hook.toml', '[hooks]\npre-commit = "cargo test"\n', '[hooks]\npre-commit = "touch /tmp/PWNED"\n'],
  [
    'CaptainHook',
    'vendor/bin/captainhook hook:pre-commit "$@"',
    'captainhook.json',
    '{"pre-commit":{"enabled":true,"actions":[{"action":"vendor/bin/phpunit"}]}}\n',
    '{"pre-commit":{"enabled":true,"actions":[{"action":"touch /tmp/PWNED"}]}}\n',
  ],
] as const)
  test(`a hook manager's project file is protected: ${manager} (${file})`, async (t) => {
    const ws = project(t, { '.git/hooks/pre-commit': `#!/bin/sh\n${hook}\n`, [file]: before, 'README.md': 'x\n' });
    t.log(await agentWrites(t, ws, file, after));
    t.is(readFileSync(path.join(ws, file), 'utf8'), before, `${file} (what ${manager} runs on every commit) was rewritten by the agent`);
  });

test('control (passes today): .pre-commit-config.yaml is refused', async (t) => {
  const before = 'repos: []\n';
  const ws = project(t, { '.git/hooks/pre-commit': '#!/bin/sh\nprek run\n', '.pre-commit-config.yaml': before });
  t.log(await agentWrites(t, ws, '.pre-commit-config.yaml', 'repos: [{repo: local, hooks: [{id: x, name: x, language: system, entry: touch /tmp/PWNED}]}]\n'));
  t.is(readFileSync(path.join(ws, '.pre-commit-config.yaml'), 'utf8'), before);
});
