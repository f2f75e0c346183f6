// Hand-written decisions for interpreters and shells (table-interpreters.ts):
// a script in the read scopes with literal arguments runs; code on the command
// line or standard input, and options that load other code, are denied.
import test from 'ava';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { decideShellCommand } from '../../../src/policy/shell-decision.js';
import { gateWorld } from '../../fixtures/gate-world.js';
import { checkCases, type GateCase } from './gate-cases.js';

const ARGUMENT = 'ZB_POLICY_SHELL_ARGUMENT';
const OUTSIDE = 'ZB_POLICY_PATH_OUTSIDE_SCOPE';
const ASSIGNMENT = 'ZB_POLICY_SHELL_ASSIGNMENT';

/** The same hand-written cases for each program ("{}" in a command stands for it). */
function each(names: readonly string[], cases: readonly GateCase[]): GateCase[] {
  return names.flatMap((name) => cases.map((c) => ({ ...c, command: c.command.replaceAll('{}', name) })));
}

export const PYTHON_CASES: readonly GateCase[] = each(
  ['python', 'python3'],
  [
    { command: '{} script.py', expect: 'allow' },
    { command: '{} script.py a --flag -c x', expect: 'allow', why: 'after the script, its own arguments' },
    { command: '{} -u -B -O -W error -X importtime -E -I -s -S -q -b -v script.py', expect: 'allow' },
    { command: '{} -OO -Xutf8 script.py', expect: 'allow' },
    { command: '{} -X dev -X faulthandler -X tracemalloc script.py', expect: 'allow' },
    { command: '{} -m pytest', expect: 'allow' },
    { command: "{} -m pytest -x -k 'name' tests", expect: 'allow', why: "after -m MODULE, the module's arguments" },
    { command: '{} -mjson.tool a.txt', expect: 'allow' },
    { command: '{} -V', expect: 'allow' },
    { command: '{} --version', expect: 'allow' },
    { command: '{} -h', expect: 'allow' },
    { command: '{} --help', expect: 'allow' },
    { command: "{} -c 'import os'", expect: ARGUMENT, why: 'code on the command line' },
    { command: '{}', expect: ARGUMENT, why: 'reads code from standard input' },
    { command: '{} -', expect: ARGUMENT, why: 'reads code from standard input' },
    { command: '{} -i script.py', expect: ARGUMENT },
    { command: '{} -V script.py', expect: ARGUMENT },
    { command: '{} $S/secret.txt', expect: OUTSIDE },
    { command: '{} ../S/secret.txt', expect: OUTSIDE },
    { command: '{} -m pip install requests', expect: ARGUMENT, why: 'installs packages (pip has its own rule)' },
    { command: '{} -m http.server', expect: ARGUMENT },
    { command: "{} -m 'os;id'", expect: ARGUMENT },
    { command: '{} -m', expect: ARGUMENT },
    { command: '{} -X pycache_prefix=$S script.py', expect: ARGUMENT, why: 'writes caches elsewhere' },
    { command: 'PYTHONSTARTUP=$S/x.py {} script.py', expect: ASSIGNMENT },
  ],
);

export const NODE_CASES: readonly GateCase[] = [
  { command: 'node app.js', expect: 'allow' },
  { command: 'node app.js --port 3000 -e x', expect: 'allow', why: 'after the script, its own arguments' },
  { command: 'node --test', expect: 'allow' },
  { command: 'node --test test/ src/main.ts', expect: 'allow' },
  { command: 'node --test --test-name-pattern=adds --test-only --test-reporter=tap --test-concurrency=2 --test-timeout=1000 --experimental-test-coverage', expect: 'allow' },
  { command: 'node --test $S', expect: OUTSIDE },
  { command: 'node --test --test-reporter=./reporter.js', expect: ARGUMENT, why: 'a reporter module would be loaded' },
  { command: 'node -c app.js', expect: 'allow' },
  { command: 'node --check app.js', expect: 'allow' },
  { command: 'node --enable-source-maps --no-warnings --trace-warnings --no-deprecation --unhandled-rejections=strict --max-old-space-size=4096 app.js', expect: 'allow' },
  { command: 'node --unhandled-rejections=ignore app.js', expect: ARGUMENT },
  { command: 'node --test --test-concurrency=all', expect: ARGUMENT },
  { command: 'node --test --test-timeout=soon', expect: ARGUMENT },
  { command: 'node --max-old-space-size=lots app.js', expect: ARGUMENT },
  { command: 'node -v', expect: 'allow' },
  { command: 'node --version', expect: 'allow' },
  { command: 'node -h', expect: 'allow' },
  { command: 'node --help', expect: 'allow' },
  { command: 'node -v app.js', expect: ARGUMENT },
  { command: "node -e 'process.exit(0)'", expect: ARGUMENT, why: 'code on the command line' },
  { command: "node --eval 'x'", expect: ARGUMENT },
  { command: 'node -p 1', expect: ARGUMENT },
  { command: 'node --print 1', expect: ARGUMENT },
  { command: 'node -r ./x.js app.js', expect: ARGUMENT, why: 'preloads a module' },
  { command: 'node --require ./x.js app.js', expect: ARGUMENT },
  { command: 'node --import ./x.js app.js', expect: ARGUMENT },
  { command: 'node --loader ./x.js app.js', expect: ARGUMENT },
  { command: 'node --experimental-loader ./x.js app.js', expect: ARGUMENT },
  { command: 'node --inspect app.js', expect: ARGUMENT },
  { command: 'node --env-file=.env app.js', expect: ARGUMENT, why: 'the file can set NODE_OPTIONS' },
  { command: 'node', expect: ARGUMENT, why: 'reads code from standard input' },
  { command: 'node -', expect: ARGUMENT },
  { command: 'node $S/secret.txt', expect: OUTSIDE },
  { command: 'NODE_OPTIONS=--require=./x.js node app.js', expect: ASSIGNMENT },
];

export const PERL_RUBY_PHP_LUA_CASES: readonly GateCase[] = [
  { command: 'perl script.pl', expect: 'allow' },
  { command: 'perl -w -W -X -c -T -t script.pl a -e x', expect: 'allow' },
  { command: 'perl -v', expect: 'allow' },
  { command: 'perl -V', expect: 'allow' },
  { command: 'perl -h', expect: 'allow' },
  { command: "perl '-M5;`id`' a.txt", expect: ARGUMENT, why: '-M text is evaluated as code' },
  { command: "perl -e 'print 1'", expect: ARGUMENT },
  { command: "perl -E 'say 1'", expect: ARGUMENT },
  { command: 'perl -MPOSIX script.pl', expect: ARGUMENT },
  { command: 'perl -mPOSIX script.pl', expect: ARGUMENT },
  { command: 'perl -I $S script.pl', expect: ARGUMENT },
  { command: 'perl -x script.pl', expect: ARGUMENT },
  { command: 'perl -i.bak script.pl a.txt', expect: ARGUMENT },
  { command: 'perl -d script.pl', expect: ARGUMENT },
  { command: 'perl -n script.pl a.txt', expect: ARGUMENT },
  { command: "perl -F'/;system(1);/' -a script.pl", expect: ARGUMENT, why: 'the -F pattern is pasted into code' },
  { command: 'perl', expect: ARGUMENT },
  { command: 'perl -', expect: ARGUMENT },
  { command: 'perl $S/secret.txt', expect: OUTSIDE },
  { command: 'PERL5OPT=-Mx perl script.pl', expect: ASSIGNMENT },
  { command: 'ruby script.rb a -e x', expect: 'allow' },
  { command: 'ruby -w -c -W script.rb', expect: 'allow' },
  { command: 'ruby -W2 script.rb', expect: 'allow' },
  { command: 'ruby -W3 script.rb', expect: ARGUMENT },
  { command: 'ruby -v', expect: 'allow' },
  { command: 'ruby --version', expect: 'allow' },
  { command: 'ruby -h', expect: 'allow' },
  { command: 'ruby --help', expect: 'allow' },
  { command: "ruby -e 'x'", expect: ARGUMENT },
  { command: 'ruby -rsocket script.rb', expect: ARGUMENT },
  { command: 'ruby -I $S script.rb', expect: ARGUMENT },
  { command: 'ruby -n script.rb', expect: ARGUMENT },
  { command: 'ruby', expect: ARGUMENT },
  { command: 'ruby $S/secret.txt', expect: OUTSIDE },
  { command: 'RUBYOPT=-rx ruby script.rb', expect: ASSIGNMENT },
  { command: 'php script.php a -r x', expect: 'allow' },
  { command: 'php -l -n script.php', expect: 'allow' },
  { command: 'php --syntax-check --no-php-ini script.php', expect: 'allow' },
  { command: 'php -v', expect: 'allow' },
  { command: 'php --version', expect: 'allow' },
  { command: 'php -i', expect: 'allow' },
  { command: 'php --info', expect: 'allow' },
  { command: 'php -m', expect: 'allow' },
  { command: 'php --modules', expect: 'allow' },
  { command: 'php -h', expect: 'allow' },
  { command: 'php --help', expect: 'allow' },
  { command: "php -r 'echo 1;'", expect: ARGUMENT },
  { command: 'php -a', expect: ARGUMENT },
  { command: 'php -d auto_prepend_file=$S/x.php script.php', expect: ARGUMENT },
  { command: 'php -c $S/php.ini script.php', expect: ARGUMENT },
  { command: "php -B 'x' -R 'y'", expect: ARGUMENT },
  { command: 'php -S 0.0.0.0:8000', expect: ARGUMENT },
  { command: 'php', expect: ARGUMENT },
  { command: 'php -', expect: ARGUMENT },
  { command: 'php $S/secret.txt', expect: OUTSIDE },
  { command: 'lua script.lua a -e x', expect: 'allow' },
  { command: 'lua -E -W script.lua', expect: 'allow' },
  { command: 'lua -v', expect: 'allow' },
  { command: "lua -e 'x()'", expect: ARGUMENT },
  { command: 'lua -l socket script.lua', expect: ARGUMENT },
  { command: 'lua -i', expect: ARGUMENT },
  { command: 'lua', expect: ARGUMENT },
  { command: 'lua -', expect: ARGUMENT },
  { command: 'lua $S/secret.txt', expect: OUTSIDE },
];

export const DENO_BUN_CASES: readonly GateCase[] = [
  { command: 'deno run script.ts', expect: 'allow' },
  { command: 'deno run -q --no-check --no-remote --cached-only --no-prompt script.ts a --allow-all', expect: 'allow', why: "after the script, its own arguments" },
  { command: 'deno run --quiet script.ts', expect: 'allow' },
  { command: 'deno run', expect: ARGUMENT },
  { command: 'deno run $S/secret.txt', expect: OUTSIDE },
  { command: 'deno run https://x.test/mod.ts', expect: ARGUMENT, why: 'fetches code' },
  { command: 'deno run npm:cowsay', expect: ARGUMENT },
  { command: 'deno run -A script.ts', expect: ARGUMENT, why: 'grants every deno permission' },
  { command: 'deno run --allow-read script.ts', expect: ARGUMENT },
  { command: 'deno run --allow-all script.ts', expect: ARGUMENT },
  { command: 'deno run --v8-flags=--x script.ts', expect: ARGUMENT },
  { command: 'deno run --config $S/deno.json script.ts', expect: ARGUMENT },
  { command: 'deno test', expect: 'allow' },
  { command: 'deno test -q --no-check --filter adds --fail-fast --parallel tests', expect: 'allow' },
  { command: 'deno test --fail-fast=2', expect: 'allow' },
  { command: 'deno test --fail-fast=first', expect: ARGUMENT },
  { command: 'deno test $S', expect: OUTSIDE },
  { command: 'deno fmt', expect: 'allow' },
  { command: 'deno fmt src/main.ts', expect: 'allow' },
  { command: 'deno fmt $R/r.txt', expect: OUTSIDE, why: 'fmt rewrites the file' },
  { command: 'deno fmt --check -q $R/r.txt', expect: 'allow', why: '--check only reads' },
  { command: 'deno fmt --check $S/secret.txt', expect: OUTSIDE },
  { command: 'deno lint -q src', expect: 'allow' },
  { command: 'deno lint $S', expect: OUTSIDE },
  { command: 'deno check -q src/main.ts', expect: 'allow' },
  { command: 'deno check $S/x.ts', expect: OUTSIDE },
  { command: 'deno task -q build --watch', expect: 'allow' },
  { command: 'deno --version', expect: 'allow' },
  { command: 'deno -V', expect: 'allow' },
  { command: 'deno', expect: ARGUMENT, why: 'a REPL reading code from standard input' },
  { command: "deno eval 'x'", expect: ARGUMENT },
  { command: 'deno repl', expect: ARGUMENT },
  { command: 'deno install npm:x', expect: ARGUMENT },
  { command: 'deno compile script.ts', expect: ARGUMENT },
  { command: 'deno upgrade', expect: ARGUMENT },
  { command: 'DENO_DIR=$S deno run script.ts', expect: ASSIGNMENT },
  { command: 'bun run build', expect: 'allow' },
  { command: 'bun run --silent build -- --watch', expect: 'allow' },
  { command: 'bun run script.ts a -e x', expect: 'allow' },
  { command: 'bun run', expect: 'allow', why: 'lists the scripts' },
  { command: 'bun run $S/secret.txt', expect: OUTSIDE },
  { command: 'bun run -', expect: ARGUMENT },
  { command: 'bun run -r ./x.ts build', expect: ARGUMENT, why: 'preloads a module' },
  { command: 'bun run --preload ./x.ts build', expect: ARGUMENT },
  { command: 'bun test', expect: 'allow' },
  { command: "bun test -t 'adds' --timeout 5000 --coverage --bail math", expect: 'allow' },
  { command: 'bun test --bail=2 --test-name-pattern=adds', expect: 'allow' },
  { command: 'bun test --timeout soon', expect: ARGUMENT },
  { command: 'bun test --bail=first', expect: ARGUMENT },
  { command: 'bun --version', expect: 'allow' },
  { command: 'bun -v', expect: 'allow' },
  { command: 'bun --revision', expect: 'allow' },
  { command: 'bun x cowsay', expect: ARGUMENT },
  { command: 'bun add left-pad', expect: ARGUMENT },
  { command: 'bun install', expect: ARGUMENT },
  { command: "bun -e 'x'", expect: ARGUMENT },
  { command: "bun --eval 'x'", expect: ARGUMENT },
  { command: 'bun -p 1', expect: ARGUMENT },
  { command: 'bun build script.ts', expect: ARGUMENT },
  { command: 'BUN_INSTALL=$S bun test', expect: ASSIGNMENT },
];

/** Every shell: no command strings, no standard input, no startup files. */
export const SHELL_CASES: readonly GateCase[] = [
  { command: '{} script.sh', expect: 'allow' },
  { command: '{} script.sh a -c b', expect: 'allow', why: 'after the script, its own arguments' },
  { command: '{} -e -u -x -v -n script.sh', expect: 'allow' },
  { command: '{} -eo pipefail script.sh', expect: 'allow' },
  { command: '{} -o errexit -o nounset -o xtrace -o verbose -o noexec script.sh', expect: 'allow' },
  { command: '{} --norc --noprofile script.sh', expect: 'allow' },
  { command: '{} --version', expect: 'allow' },
  { command: '{} -- script.sh', expect: 'allow' },
  { command: "{} -c 'id'", expect: ARGUMENT, why: 'a command string' },
  { command: '{}', expect: ARGUMENT, why: 'reads commands from standard input' },
  { command: '{} -', expect: ARGUMENT },
  { command: '{} -s', expect: ARGUMENT },
  { command: '{} -i script.sh', expect: ARGUMENT },
  { command: '{} -l script.sh', expect: ARGUMENT },
  { command: '{} --login script.sh', expect: ARGUMENT },
  { command: '{} --rcfile a.txt script.sh', expect: ARGUMENT },
  { command: '{} --init-file a.txt script.sh', expect: ARGUMENT },
  { command: '{} -O extglob script.sh', expect: ARGUMENT },
  { command: '{} +O extglob script.sh', expect: ARGUMENT, why: '+O is an option, not a script' },
  { command: '{} +x $S/secret.txt', expect: ARGUMENT, why: '+x is an option; the script would be the next argument' },
  { command: '{} -o vi script.sh', expect: ARGUMENT },
  { command: '{} --version script.sh', expect: ARGUMENT },
  { command: '{} $S/secret.txt', expect: OUTSIDE },
  { command: '{} ../S/secret.txt', expect: OUTSIDE },
  { command: 'BASH_ENV=$S/x {} script.sh', expect: ASSIGNMENT },
];

/** Every case above for the shared gate world (ksh and fish need programs it does not list: see the last test). */
export const INTERPRETER_CASES: readonly GateCase[] = [...PYTHON_CASES, ...NODE_CASES, ...PERL_RUBY_PHP_LUA_CASES, ...DENO_BUN_CASES, ...each(['bash', 'sh', 'dash', 'zsh'], SHELL_CASES)];

test('python runs scripts and modules, never code on the command line', (t) => {
  checkCases(t, PYTHON_CASES);
});

test('node runs scripts and tests, never code on the command line or preloaded modules', (t) => {
  checkCases(t, NODE_CASES);
});

test('perl, ruby, php and lua run scripts only', (t) => {
  checkCases(t, PERL_RUBY_PHP_LUA_CASES);
});

test('deno runs without granted permissions and bun runs scripts and tests; neither installs or evaluates', (t) => {
  checkCases(t, DENO_BUN_CASES);
});

test('bash, sh, dash and zsh run script files only', (t) => {
  checkCases(t, each(['bash', 'sh', 'dash', 'zsh'], SHELL_CASES));
});

test('ksh and fish run script files only', (t) => {
  // The shared gate world does not list them: allow them here, with stubs where this machine lacks them.
  const world = gateWorld(t);
  const stubs = path.join(world.root, 'more-stubs');
  mkdirSync(stubs);
  for (const name of ['ksh', 'fish']) {
    writeFileSync(path.join(stubs, name), '#!/bin/sh\nexit 0\n');
    chmodSync(path.join(stubs, name), 0o755);
  }
  const context = { ...world.context, allow: [...world.context.allow, 'ksh', 'fish'], searchPath: [...world.context.searchPath, stubs] };
  const mismatches = each(['ksh', 'fish'], SHELL_CASES).flatMap((c) => {
    const decision = decideShellCommand(world.expand(c.command), context);
    const actual = decision.allow ? 'allow' : decision.code;
    return actual === c.expect ? [] : [`${c.command}: expected ${c.expect}, got ${actual}${decision.allow ? '' : ` (${decision.reason})`}`];
  });
  t.deepEqual(mismatches, []);
});
