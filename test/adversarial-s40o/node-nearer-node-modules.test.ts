// Review s40o of issue 21: node looks a bare specifier up in every `node_modules` from the requiring file's directory
// upward (`tools/node_modules`, then `node_modules`), the nearest first. A hook's program `tools/check.js` that
// requires an installed package (`require("picocolors")`, installed at the top's node_modules) or an optional one in
// a `try` loads `tools/node_modules/NAME/index.js` if that exists. zotbox takes every bare specifier as installed code
// (node-module-resolution.ts) and never protects a node_modules directory nearer the program than the one the package
// is installed in: the Node counterpart of Python's sys.path[0] shadowing, which is protected. The write tool writes
// `tools/node_modules/picocolors/index.js` (ignored by the usual `node_modules/` line of .gitignore: `git status` shows
// nothing); the user's commit runs it.
import test from 'ava';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';

for (const [name, check] of [
  ['an installed package', 'const pc = require("picocolors");\nconsole.log(pc.green("ok"));\n'],
  ['an optional package in a try', 'let notify = () => {};\ntry { notify = require("node-notifier").notify; } catch {}\nnotify("checked");\n'],
] as const)
  test(`a node_modules nearer a hook program than the installed one is protected: ${name}`, async (t) => {
    const ws = project(t, {
      '.git/hooks/pre-commit': '#!/bin/sh\nexec node tools/check.js\n',
      '.gitignore': 'node_modules/\n',
      'tools/check.js': check,
    });
    // The installed dependency (not tracked), as `npm install` leaves it.
    mkdirSync(path.join(ws, 'node_modules', 'picocolors'), { recursive: true });
    writeFileSync(path.join(ws, 'node_modules', 'picocolors', 'package.json'), '{"name":"picocolors","version":"1.0.0","main":"index.js"}\n');
    writeFileSync(path.join(ws, 'node_modules', 'picocolors', 'index.js'), 'module.exports = { green: (s) => s };\n');
    const pkg = name === 'an installed package' ? 'picocolors' : 'node-notifier';
    const marker = path.join(path.dirname(ws), 'PWNED');
    t.log(
      await agentWrites(
        t,
        ws,
        `tools/node_modules/${pkg}/index.js`,
        `require("fs").writeFileSync(${JSON.stringify(marker)}, "agent code ran");\nmodule.exports = { green: (s) => s, notify: () => {} };\n`,
      ),
    );
    try {
      git(ws, 'commit', '-q', '--allow-empty', '-m', 'user commit');
    } catch {
      // what the hook ran is what counts
    }
    t.false(existsSync(marker), "the agent-written tools/node_modules package ran in the user's pre-commit hook");
  });

test('control (passes today): the program relative require is refused', async (t) => {
  const ws = project(t, {
    '.git/hooks/pre-commit': '#!/bin/sh\nexec node tools/check.js\n',
    'tools/check.js': 'require("./util.js");\n',
    'tools/util.js': '\n',
  });
  const marker = path.join(path.dirname(ws), 'PWNED');
  t.log(await agentWrites(t, ws, 'tools/util.js', `require("fs").writeFileSync(${JSON.stringify(marker)}, "x");\n`));
  try {
    git(ws, 'commit', '-q', '--allow-empty', '-m', 'user commit');
  } catch {
    // what the hook ran is what counts
  }
  t.false(existsSync(marker));
});
