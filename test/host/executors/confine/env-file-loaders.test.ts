// The environment files a loader exports into the command it runs (env-file-loaders.ts): each loader's defaults and
// the files its options name, by the manuals (dotenv-cli, dotenvx, env-cmd, foreman/honcho/overmind/heroku local, uv,
// deno); then through toolFileReferences on a real hook: protected where it runs, unresolved where it cannot be spelled.
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadedEnvironmentFiles } from '../../../../src/host/executors/confine/env-file-loaders.js';
import { toolFileReferences } from '../../../../src/host/executors/confine/tool-file-references.js';
import { findControlLocation } from '../../../../src/policy/protected-files.js';
import { tempDir } from '../../../fixtures/temp.js';

/** The names `text`'s loaders read (sorted), each relative to where it runs; `.env`^ is one looked up from above too. */
const loaded = test.macro((t, text: string, expected: readonly string[], environment: Readonly<Record<string, string>> = {}) => {
  const found = loadedEnvironmentFiles(text, environment);
  t.deepEqual(found.unresolved, []);
  t.deepEqual(found.files.map((file) => `${file.name}${file.above === true ? '^' : ''}`).sort(), [...expected].sort());
});

test('dotenv-cli: .env where it runs', loaded, 'dotenv -- git status', ['.env']);
test('dotenv-cli through npx, behind a wrapper', loaded, 'timeout 60 npx dotenv -- git status', ['.env']);
test('dotenv-cli -e: the files named, in place of .env', loaded, 'dotenv -e .env.ci -e ../shared.env -- x', ['.env.ci', '../shared.env']);
test('dotenv-cli -c: each file and its .local', loaded, 'dotenv -c -- x', ['.env', '.env.local']);
test('dotenv-cli -c ENV: .ENV and .ENV.local too, for each -e file', loaded, 'dotenv -e config/.env -c staging -- x', [
  'config/.env',
  'config/.env.local',
  'config/.env.staging',
  'config/.env.staging.local',
]);
test("python-dotenv's CLI: .env, and the file -f names", loaded, 'python3 -m dotenv run -- x; dotenv -f .env.ci run x', ['.env', '.env.ci']);
test('dotenvx run: .env', loaded, 'dotenvx run -- x', ['.env']);
test('dotenvx run -f: each file named (the option takes several)', loaded, 'dotenvx run -f .env.a .env.b --env-file=.env.c -- x', ['.env.a', '.env.b', '.env.c']);
test(
  'dotenvx --convention: the cascade, with NODE_ENV from the environment',
  loaded,
  'dotenvx run --convention nextjs -- x',
  ['.env', '.env.local', '.env.defaults', ...['development', 'production', 'test', 'staging'].flatMap((name) => [`.env.${name}`, `.env.${name}.local`])],
  { NODE_ENV: 'staging' },
);
test('env-cmd: its env file and rc file defaults (the .js ones are code) and the files named', loaded, 'env-cmd -f ./custom/env.js -r ./config/rc.json x', [
  '.env',
  '.env.js',
  '.env.json',
  '.env-cmdrc',
  '.env-cmdrc.js',
  '.env-cmdrc.json',
  './custom/env.js',
  './config/rc.json',
]);
test('foreman: .env and .foreman, where it runs and at the Procfile it is given', loaded, 'foreman run -f config/Procfile x', ['.env', '.foreman', 'config/.env', 'config/.foreman']);
test('honcho -e (a list) and -d: each file from each root', loaded, 'honcho -e a.env,b.env -d web run x', ['.env', 'a.env', 'b.env', 'web/.env', 'web/a.env', 'web/b.env']);
test('overmind: .env and .overmind.env', loaded, 'overmind start', ['.env', '.overmind.env']);
test('heroku local: .env; another heroku command loads none', loaded, 'heroku local:run x; heroku apps', ['.env']);
test('uv run --env-file, and UV_ENV_FILE set for it', loaded, 'uv run --env-file .env.test pytest; UV_ENV_FILE=.env.uv uv run x', ['.env.test', '.env.uv']);
test('uv run alone loads no env file', loaded, 'uv run pytest', []);
test('deno --env-file alone: .env, found from above too; --env-file=FILE: that file', loaded, 'deno run --env-file main.ts; deno run --env-file=.env.x main.ts', ['.env^', '.env.x']);
test('in sh -c text and a command substitution too', loaded, 'sh -c "dotenv -e .a -- x"; y=$(dotenvx run -f .b -- z)', ['.a', '.b']);
test('no loader: nothing', loaded, 'git status --short; node --version', []);

test('a loaded file zotbox cannot spell out is unresolved', (t) => {
  for (const text of ['dotenv -e "$ENV_FILE" -- x', 'dotenv -c "$STAGE" -- x', 'uv run --env-file .env.* x', 'env-cmd -f ~/x.env y'])
    t.not(loadedEnvironmentFiles(text, {}).unresolved.length, 0, text);
});

/** A repository whose pre-commit hook runs `hook`, with `files`: what the tool files protect, and what is unresolved. */
function project(t: ExecutionContext, hook: string, files: Readonly<Record<string, string>> = {}) {
  const ws = path.join(tempDir(t, 'zb-envloaders-'), 'ws');
  for (const [name, content] of Object.entries({ '.git/hooks/pre-commit': `#!/bin/sh\n${hook}\n`, 'src/app.js': '1;\n', ...files })) {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    writeFileSync(path.join(ws, name), content);
  }
  const found = toolFileReferences([], [ws], {
    environment: { PATH: '/usr/bin:/bin', HOME: path.join(path.dirname(ws), 'home') },
    hookDirectories: [{ directory: path.join(ws, '.git/hooks'), top: ws }],
  });
  return { unresolved: found.unresolved, protects: (relative: string) => findControlLocation(path.join(ws, relative), found.locations) !== undefined };
}

test("a hook's dotenv-cli: .env protected, there or not, in the directory it moves to; nothing else", (t) => {
  const { unresolved, protects } = project(t, 'cd web && dotenv -- git status --short');
  t.deepEqual(unresolved, []);
  t.true(protects('web/.env'));
  t.false(protects('src/app.js'));
  t.false(protects('web/.env.local'));
});

test("a .env's NODE_OPTIONS --require is protected too", (t) => {
  const { unresolved, protects } = project(t, 'dotenv -- node tools/check.js', { '.env': 'NODE_OPTIONS=--require ./tools/preload.js\n' });
  t.deepEqual(unresolved, []);
  t.true(protects('.env'));
  t.true(protects('tools/preload.js'));
});

test("env-cmd's .env-cmdrc.js is code: protected, and what it requires too", (t) => {
  const { unresolved, protects } = project(t, 'env-cmd -e ci npm test', { '.env-cmdrc.js': 'module.exports = require("./config/env.js");\n', 'config/env.js': 'module.exports = {};\n' });
  t.deepEqual(unresolved, []);
  t.true(protects('.env-cmdrc.js'));
  t.true(protects('config/env.js'));
});

test('a loaded file named by a variable refuses every writer (unresolved)', (t) => {
  t.not(project(t, 'dotenv -e "$ENV_FILE" -- git status').unresolved.length, 0);
});

test('a loader in a directory zotbox cannot place is unresolved', (t) => {
  const { unresolved } = project(t, 'cd "$(git rev-parse --show-prefix)x" && dotenv -- git status');
  t.true(unresolved.some((why) => why.includes('"dotenv"') && why.endsWith('which environment files it loads')));
});

test('a hook that runs no loader leaves .env writable', (t) => {
  const { unresolved, protects } = project(t, 'git status --short');
  t.deepEqual(unresolved, []);
  t.false(protects('.env'));
});
