// Where a name run through node_modules/.bin is looked up (node-bin-runs.ts): from every directory a cd of the text
// may move to, or the runner's own -C/--prefix/--dir/--cwd, and in shell text nested inside (sh -c, npx -c, npm exec
// --call, $(...), a here-document a shell reads). A directory or a text zotbox cannot work out is unresolved, never
// looked up from the wrong place. Expected outcomes written out by hand.
import test from 'ava';
import { chmodSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type NodeBinReading, nodeBinReading } from '../../../../src/host/executors/confine/node-bin-runs.js';
import { toolFileReferences } from '../../../../src/host/executors/confine/tool-file-references.js';
import { findControlLocation } from '../../../../src/policy/protected-files.js';
import { tempDir } from '../../../fixtures/temp.js';

const WS = '/ws';
/** The names and what is unresolved (the package specs npx also runs are node-package-bins.test.ts's). */
const namesOf = ({ runs, unresolved }: NodeBinReading) => ({ runs, unresolved });
const read = (text: string, pathHasBin = false) => namesOf(nodeBinReading(text, { workingDirectory: WS, scriptDirectory: '/ws/.husky', pathHasBin }));

test('a cd before the runner: looked up from where the command may run (the directory moved to, and the start)', (t) => {
  for (const [text, pathHasBin, directories] of [
    ['cd packages/app && npx acme-lint', false, ['/ws', '/ws/packages/app']],
    ['(cd packages/app && npm exec acme-lint)', false, ['/ws', '/ws/packages/app']],
    ['cd packages/app; acme-lint', true, ['/ws', '/ws/packages/app']],
    ['if [ -d packages/app ]; then\n  cd packages/app\nfi\nnpx acme-lint', false, ['/ws', '/ws/packages/app']],
    ['cd packages; cd app && npx acme-lint', false, ['/ws', '/ws/packages', '/ws/app', '/ws/packages/app']],
    ['cd "$(dirname "$0")/../packages/app" && npx acme-lint', false, ['/ws', '/ws/packages/app']],
    ['cd "$(git rev-parse --show-toplevel)/packages/app" && npx acme-lint', false, ['/ws', '/ws/packages/app']],
    ['cd /elsewhere/app && npx acme-lint', false, ['/ws', '/elsewhere/app']],
    ['pushd packages/app; npx acme-lint; popd', false, ['/ws', '/ws/packages/app']],
    ['cd packages/app && npx acme-lint; cd - >/dev/null', false, ['/ws', '/ws/packages/app']],
  ] as const) {
    const reading = read(text, pathHasBin);
    t.deepEqual(reading.unresolved, [], text);
    t.deepEqual(
      reading.runs.filter((run) => run.name === 'acme-lint'),
      [{ name: 'acme-lint', directories: [...directories] }],
      text,
    );
  }
});

test("the runner's own directory option: looked up from there", (t) => {
  for (const text of [
    'npm --prefix packages/app exec -- acme-lint',
    'npm -C packages/app exec acme-lint',
    'npm exec --prefix=packages/app acme-lint',
    'pnpm -C packages/app exec acme-lint',
    'pnpm --dir packages/app exec acme-lint',
    'yarn --cwd packages/app acme-lint',
    'npx --prefix packages/app acme-lint',
    'env -C packages/app npx acme-lint',
  ])
    t.deepEqual(read(text), { runs: [{ name: 'acme-lint', directories: ['/ws/packages/app'] }], unresolved: [] }, text);
});

test('a directory zotbox cannot work out leaves the name unresolved, not looked up from the start', (t) => {
  for (const text of [
    'cd "$PKG" && npx acme-lint',
    'cd - && npx acme-lint',
    'cd && npx acme-lint',
    'cd ~/src/app && npx acme-lint',
    'for d in packages/*; do (cd "$d" && npx acme-lint); done',
    'cd packages/*/ && npx acme-lint',
    'npm --prefix "$PKG" exec acme-lint',
    'yarn --cwd "$(cat .app-dir)" acme-lint',
    'cd "$PKG"\nacme-lint',
  ]) {
    const reading = read(text, text.endsWith('\nacme-lint'));
    t.deepEqual(reading.runs, [], text);
    t.is(reading.unresolved.length, 1, text);
  }
});

test("a cd to the user's home or to a variable of the user's environment the text never sets: looked up there", (t) => {
  const context = { workingDirectory: WS, homeDirectory: '/home/u', environment: { APP: '/ws/packages/app', HOME: '/home/u' } };
  for (const [text, directories] of [
    ['cd && npx acme-lint', ['/ws', '/home/u']],
    ['cd ~/src && npx acme-lint', ['/ws', '/home/u/src']],
    ['cd "$HOME/src" && npx acme-lint', ['/ws', '/home/u/src']],
    ['cd "$APP" && npx acme-lint', ['/ws', '/ws/packages/app']],
  ] as const)
    t.deepEqual(namesOf(nodeBinReading(text, context)), { runs: [{ name: 'acme-lint', directories: [...directories] }], unresolved: [] }, text);
  // Set by the text itself (a loop, a read, an assignment): not the environment's value.
  for (const text of ['APP=$(cat .dir); cd "$APP" && npx acme-lint', 'for APP in a b; do cd "$APP"; npx acme-lint; done']) t.is(nodeBinReading(text, context).unresolved.length, 1, text);
});

test("a variable the text sets to one literal, or the user's environment holds, is spelled out as the shell would", (t) => {
  const context = { workingDirectory: WS, environment: { LINT: 'acme-lint' } };
  for (const text of ['CMD="npx acme-lint"; $CMD', 'CMD="npx acme-lint"\nsh -c "$CMD"', 'APP=packages/app\ncd $APP && npx acme-lint', 'npx "$LINT"'])
    t.deepEqual(
      nodeBinReading(text, context).runs.map((run) => run.name),
      ['acme-lint'],
      text,
    );
  // Two different values, a value computed or read: not spelled out (the name, or the text, is unresolved).
  for (const text of ['CMD="npx acme-lint"; [ -n "$X" ] && CMD="npx other"; sh -c "$CMD"', 'T=$(cat .tool); npx "$T"', 'read T; npx "$T"', 'CMD="npx acme-lint"; [ -n "$X" ] && CMD=make; $CMD'])
    t.true(nodeBinReading(text, context).unresolved.length > 0, text);
});

test('a name run in workspace packages (npm --workspace, pnpm --filter or -r, yarn workspace) is unresolved; a script run there is not a name', (t) => {
  for (const text of [
    'npm exec -w packages/app -- acme-lint',
    'npm exec --workspaces acme-lint',
    'pnpm --filter app exec acme-lint',
    'pnpm -r exec acme-lint',
    'pnpm --filter=app acme-lint',
    'yarn workspace app acme-lint',
    'yarn workspaces foreach -A run acme-lint',
    "pnpm -r exec --shell-mode 'acme-lint src'",
  ]) {
    const reading = read(text);
    t.deepEqual(reading.runs, [], text);
    t.is(reading.unresolved.length, 1, text);
  }
  t.deepEqual(read('npm run lint --workspaces'), { runs: [], unresolved: [] });
});

test('over-denial: a cd zotbox cannot work out names nothing when no name runs through node_modules/.bin', (t) => {
  for (const text of ['cd "$PKG" && make lint', 'cd - && git status', 'for d in packages/*; do (cd "$d" && ./check.sh); done']) t.deepEqual(read(text), { runs: [], unresolved: [] }, text);
});

test('names inside shell text a command runs: sh -c, bash -c, env sh -c, npx -c, npm exec --call, pnpm --shell-mode, eval, $(...), a here-document', (t) => {
  for (const [text, directories] of [
    ['sh -c "npx acme-lint"', ['/ws']],
    ["bash -c 'cd packages/app && npx acme-lint --fix'", ['/ws', '/ws/packages/app']],
    ["env CI=1 sh -ec 'npx acme-lint'", ['/ws']],
    ["npx -c 'acme-lint --fix'", ['/ws']],
    ["npm exec -c 'acme-lint src'", ['/ws']],
    ["npm exec --call='acme-lint src'", ['/ws']],
    ["npm --prefix packages/app exec --call 'acme-lint src'", ['/ws/packages/app']],
    ["pnpm exec --shell-mode 'acme-lint src'", ['/ws']],
    ["eval 'npx acme-lint'", ['/ws']],
    ['out=$(npx acme-lint)', ['/ws']],
    ["sh <<'EOF'\nnpx acme-lint\nEOF", ['/ws']],
    ['sh -c "sh -c \'npx acme-lint\'"', ['/ws']],
  ] as const) {
    // npx -c runs its text with node_modules/.bin on PATH: the operand words are looked up there too (`src`).
    const { runs, unresolved } = read(text);
    t.deepEqual({ runs: runs.filter((run) => run.name !== 'src'), unresolved }, { runs: [{ name: 'acme-lint', directories: [...directories] }], unresolved: [] }, text);
  }
});

test('nested shell text zotbox cannot split (an expansion the outer shell makes, an unclosed quote) is unresolved', (t) => {
  for (const text of ['sh -c "npx $TOOL"', 'bash -c "npx acme-lint $FILES"', 'npx -c "acme-lint $(cat args)"', "sh -c 'npx acme-lint", 'npx "$TOOL"']) t.true(read(text).unresolved.length > 0, text);
  // Quoted against the outer shell, the inner one expands it: an argument, not the name.
  t.deepEqual(read('sh -c \'npx acme-lint "$@"\''), { runs: [{ name: 'acme-lint', directories: ['/ws'] }], unresolved: [] });
});

test('with node_modules/.bin on PATH every command name is looked up there, npm and npx too (husky v9), and every plain word after it', (t) => {
  // Any program may run a word of its own (`timeout 60 NAME`, `cross-env X=1 NAME`): a word no .bin holds adds nothing.
  t.deepEqual(
    read('npm test', true).runs.map((run) => run.name),
    ['npm'], // `test` is a shell word (a builtin): never a bin's name
  );
  for (const [text, names] of [
    ['timeout 60 acme-lint', ['timeout', '60', 'acme-lint']],
    ['git diff --name-only | xargs -r acme-lint --fix', ['git', 'diff', 'xargs', 'acme-lint']],
    ['if acme-lint; then echo ok; fi', ['acme-lint']],
    ['{ acme-lint; } || exit 1', ['acme-lint']],
    ['echo acme-lint; test -f acme-lint; export X=acme-lint', []],
  ] as const)
    t.deepEqual(
      read(text, true).runs.map((run) => run.name),
      [...names],
      text,
    );
});

test("over-denial: husky v9's own runner (.husky/_/h) and a lint-staged hook refuse nothing; a test's options are no names", (t) => {
  const h = [
    '#!/usr/bin/env sh',
    '[ "$HUSKY" = "2" ] && set -x',
    'n=$(basename "$0")',
    's=$(dirname "$(dirname "$0")")/$n',
    '[ ! -f "$s" ] && exit 0',
    'i="${XDG_CONFIG_HOME:-$HOME/.config}/husky/init.sh"',
    '[ -f "$i" ] && . "$i"',
    'export PATH="node_modules/.bin:$PATH"',
    'sh -e "$s" "$@"',
    'c=$?',
    'exit $c',
  ].join('\n');
  t.deepEqual(
    nodeBinReading(h, { workingDirectory: WS, scriptDirectory: '/ws/.husky/_', pathHasBin: true })
      .runs.map((run) => run.name)
      .sort(),
    ['basename', 'dirname', 'sh'],
  );
  t.deepEqual(nodeBinReading(h, { workingDirectory: WS, pathHasBin: true }).unresolved, []);
  const hook = 'cd "$(dirname -- "$0")/.." && npx lint-staged\n';
  t.deepEqual(namesOf(nodeBinReading(hook, { workingDirectory: WS, scriptDirectory: '/ws/.husky', pathHasBin: true })), {
    runs: [
      { name: 'lint-staged', directories: ['/ws'] },
      { name: 'npx', directories: ['/ws'] },
      { name: 'dirname', directories: ['/ws'] },
    ],
    unresolved: [],
  });
});

/** A monorepo whose packages/app has its own node_modules/.bin/acme-lint (into packages/lint), none at the top; a pre-commit hook `hook`. */
function monorepo(t: Parameters<typeof tempDir>[0], hook: string) {
  const ws = path.join(realpathSync(tempDir(t, 'zb-node-bin-dir-')), 'ws');
  const files: Record<string, string> = {
    'package.json': '{"name":"mono","private":true}\n',
    'packages/lint/package.json': '{"name":"@acme/lint","bin":{"acme-lint":"bin/lint.js"}}\n',
    'packages/lint/bin/lint.js': '#!/usr/bin/env node\nrequire("../lib/rules.js");\n',
    'packages/lint/lib/rules.js': 'module.exports = {};\n',
    'packages/app/package.json': '{"name":"app"}\n',
    'packages/app/src/index.js': 'x\n',
    '.git/hooks/pre-commit': `#!/bin/sh\n${hook}\n`,
  };
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    writeFileSync(path.join(ws, name), content);
  }
  chmodSync(path.join(ws, 'packages/lint/bin/lint.js'), 0o755);
  mkdirSync(path.join(ws, 'packages/app/node_modules/.bin'), { recursive: true });
  symlinkSync('../../../lint/bin/lint.js', path.join(ws, 'packages/app/node_modules/.bin/acme-lint'));
  for (const name of ['.git/objects', '.git/refs']) mkdirSync(path.join(ws, name), { recursive: true });
  writeFileSync(path.join(ws, '.git/HEAD'), 'ref: refs/heads/main\n');
  const found = toolFileReferences([], [ws], { environment: { PATH: process.env['PATH'] ?? '' }, hookDirectories: [{ directory: path.join(ws, '.git/hooks'), top: ws }] });
  return { unresolved: found.unresolved, protects: (relative: string) => findControlLocation(path.join(ws, relative), found.locations) !== undefined };
}

for (const hook of [
  'cd packages/app && npx acme-lint',
  '(cd packages/app && npm exec -- acme-lint)',
  'npm --prefix packages/app exec acme-lint',
  'pnpm -C packages/app exec acme-lint',
  'sh -c "cd packages/app && npx acme-lint"',
  "cd packages/app && npx -c 'acme-lint src'",
])
  test(`a hook's bin in the directory it moves to is read where its link leads: ${hook}`, (t) => {
    const { unresolved, protects } = monorepo(t, hook);
    t.deepEqual(unresolved, []);
    for (const file of ['packages/lint/bin/lint.js', 'packages/lint/lib/rules.js', 'packages/app/node_modules/.bin/acme-lint']) t.true(protects(file), `${hook}: ${file}`);
    // Over-denial: ordinary files of the project stay the agent's.
    for (const file of ['packages/app/src/index.js', 'packages/lint/package.json']) t.false(protects(file), `${hook}: ${file}`);
  });

test('a hook that runs a bin from a directory zotbox cannot work out is unresolved', (t) => {
  // (The script's reading refuses the cd's variable too; the name's own reason is there either way.)
  t.true(monorepo(t, 'cd "$APP_DIR" && npx acme-lint').unresolved.some((why) => why.includes('runs "acme-lint" from node_modules/.bin')));
});
