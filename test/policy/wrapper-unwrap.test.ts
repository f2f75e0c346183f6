// Which words a wrapper runs as its command, written out by hand, and then the
// real programs run with a probe as the command, to show that they run exactly
// those words (gate-rules §4: what runs is what was checked).
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { COMMAND_SEARCH_PATH } from '../../src/host/executors/command-environment.js';
import { lookupProgram } from '../../src/policy/shell-decision.js';
import { parseShellCommand } from '../../src/policy/shell-parse.js';
import { WRAPPERS } from '../../src/policy/wrapper-rules.js';
import { splitEnvString, unwrapCommand } from '../../src/policy/wrapper-unwrap.js';
import { tempDir } from '../fixtures/temp.js';

interface Reading {
  readonly inner: readonly string[];
  readonly assignments?: Readonly<Record<string, string>>;
  readonly unset?: readonly string[];
  readonly directory?: string;
}

/** Command → what the wrapper runs, by hand. Every one is also run for real below. */
const READINGS: readonly [string, Reading][] = [
  ['timeout 5 probe status', { inner: ['probe', 'status'] }],
  ['timeout -vsKILL 5 probe status', { inner: ['probe', 'status'] }],
  ['timeout -s KILL -k 1 5 probe', { inner: ['probe'] }],
  ['timeout --sig=KILL --kill=1 5 probe -s x', { inner: ['probe', '-s', 'x'] }],
  ['timeout --signal TERM --preserve-status 1.5s probe', { inner: ['probe'] }],
  ['timeout -- 5 probe --', { inner: ['probe', '--'] }],
  ['nice probe a', { inner: ['probe', 'a'] }],
  ['nice -n 5 probe a', { inner: ['probe', 'a'] }],
  ['nice -n5 probe', { inner: ['probe'] }],
  ['nice --adj=5 probe', { inner: ['probe'] }],
  ['nice --adjustment 5 probe -n 3', { inner: ['probe', '-n', '3'] }],
  ['nice -10 probe', { inner: ['probe'] }],
  ['nice -+3 probe', { inner: ['probe'] }],
  ['nice -5 -n 3 probe x', { inner: ['probe', 'x'] }],
  ['nice -- probe -n', { inner: ['probe', '-n'] }],
  ['nohup probe status', { inner: ['probe', 'status'] }],
  ['nohup -- probe -x', { inner: ['probe', '-x'] }],
  ['stdbuf -oL probe', { inner: ['probe'] }],
  ['stdbuf -o L -e 0 probe y', { inner: ['probe', 'y'] }],
  ['stdbuf --output=0 probe', { inner: ['probe'] }],
  ['stdbuf --out 0 -- probe z', { inner: ['probe', 'z'] }],
  ['ionice -c 3 probe', { inner: ['probe'] }],
  ['ionice -c3 -t probe a', { inner: ['probe', 'a'] }],
  ['ionice --class=idle probe', { inner: ['probe'] }],
  ['ionice -c 2 -n 7 probe', { inner: ['probe'] }],
  ['env probe a', { inner: ['probe', 'a'] }],
  ['env A=1 B=2 probe a', { inner: ['probe', 'a'], assignments: { A: '1', B: '2' } }],
  ['env -- A=1 probe', { inner: ['probe'], assignments: { A: '1' } }],
  ['env -u LANG probe', { inner: ['probe'], unset: ['LANG'] }],
  ['env -uLANG --unset=A probe', { inner: ['probe'], unset: ['LANG', 'A'] }],
  ['env -C sub probe', { inner: ['probe'], directory: 'sub' }],
  ['env --chdir=sub probe', { inner: ['probe'], directory: 'sub' }],
  ["env -S 'probe a b'", { inner: ['probe', 'a', 'b'] }],
  ['env -S\'probe "a b"\' c', { inner: ['probe', 'a b', 'c'] }],
  ["env --split-string='probe a' b", { inner: ['probe', 'a', 'b'] }],
  ["env --split='probe' b", { inner: ['probe', 'b'] }],
  ["env -vS 'A=1 probe' x", { inner: ['probe', 'x'], assignments: { A: '1' } }],
  ["env -S '-u LANG probe' a", { inner: ['probe', 'a'], unset: ['LANG'] }],
  ['env -S "probe \'\'"', { inner: ['probe', ''] }],
  ['env -S \'-S "probe a"\' b', { inner: ['probe', 'a', 'b'] }],
  ["env -C sub -S 'probe a'", { inner: ['probe', 'a'], directory: 'sub' }],
  ['command probe a', { inner: ['probe', 'a'] }],
  ['command -- probe -v', { inner: ['probe', '-v'] }],
];

function argvOf(command: string): string[] {
  const parsed = parseShellCommand(command);
  if (!parsed.ok) throw new Error(`${command}: ${parsed.reason}`);
  return [...parsed.ast.items[0]!.pipeline.commands[0]!.argv];
}

for (const [command, expected] of READINGS) {
  test(`reads ${JSON.stringify(command)} as running ${JSON.stringify(expected.inner)}`, (t) => {
    const [base, ...args] = argvOf(command);
    const result = unwrapCommand(base!, WRAPPERS.get(base!)!, args);
    if (!result.ok) return t.fail(result.reason);
    t.deepEqual(result.value.inner, expected.inner);
    t.deepEqual(Object.fromEntries(result.value.assignments.map((a) => [a.name, a.value])), expected.assignments ?? {});
    t.deepEqual(result.value.unset, expected.unset ?? []);
    t.is(result.value.directory, expected.directory);
  });
}

/** A probe named "probe" on a PATH of its own: prints its cwd, A and LANG, one a line, then each argument ended by NUL. */
function probeWorld(t: Parameters<typeof tempDir>[0]): { bin: string; ws: string } {
  const root = realpathSync(tempDir(t, 'zb-wrap-real-'));
  const bin = path.join(root, 'bin');
  const ws = path.join(root, 'ws');
  mkdirSync(bin);
  mkdirSync(path.join(ws, 'sub'), { recursive: true });
  const probe = path.join(bin, 'probe');
  writeFileSync(probe, '#!/bin/sh\npwd -P\nprintf "A=%s\\n" "${A-<unset>}"\nprintf "LANG=%s\\n" "${LANG-<unset>}"\nfor a in "$@"; do printf "%s\\0" "$a"; done\n');
  chmodSync(probe, 0o755);
  return { bin, ws };
}

function readProbe(stdout: string): { cwd: string; a: string; lang: string; args: string[] } {
  const [cwd = '', a = '', lang = '', ...rest] = stdout.split('\n');
  return { cwd, a, lang, args: rest.join('\n').split('\0').slice(0, -1) };
}

// The builtin `command` is never run as a program (the executor strips it), so it has no real counterpart here.
const REAL = READINGS.filter(([command]) => !command.startsWith('command '));

test('the real wrappers run exactly the words the gate reads as their command', (t) => {
  const { bin, ws } = probeWorld(t);
  for (const [command, expected] of REAL) {
    const [base, ...args] = argvOf(command);
    const program = lookupProgram(base!, COMMAND_SEARCH_PATH);
    if (program === undefined && base === 'ionice') continue; // util-linux may be absent; coreutils' wrappers are required below
    t.truthy(program, `${base!} is on the fixed PATH`);
    const run = spawnSync(program!, args, { cwd: ws, env: { PATH: bin, LANG: 'C' }, encoding: 'utf8' });
    t.is(run.status, 0, `${command}: ${run.stderr}`);
    const probe = readProbe(run.stdout);
    t.is(probe.cwd, expected.directory === undefined ? ws : path.join(ws, expected.directory), command);
    t.is(probe.a, `A=${expected.assignments?.['A'] ?? '<unset>'}`, command);
    t.is(probe.lang, `LANG=${expected.unset?.includes('LANG') === true ? '<unset>' : 'C'}`, command);
    t.deepEqual(probe.args, expected.inner.slice(1), command);
  }
});

test("env -S refuses what env reads differently from the gate's lexer", (t) => {
  for (const text of ['probe $HOME', "probe '${A}'", 'probe a\\b', "probe 'a\\b'", 'probe #x', 'probe a;b', 'probe | probe', 'probe && probe', 'probe "a`b"', 'probe >x', 'A=1']) {
    const split = splitEnvString(text);
    t.false(split.ok, text);
    if (!split.ok) t.is(split.code, 'ZB_POLICY_SHELL_ARGUMENT', text);
  }
});

test('env -S is read as GNU env reads it: the split words replace -S and options go on', (t) => {
  t.deepEqual(splitEnvString("probe 'a b' \"c d\" e''f"), { ok: true, value: ['probe', 'a b', 'c d', 'ef'] });
  const { bin } = probeWorld(t);
  const env = lookupProgram('env', COMMAND_SEARCH_PATH)!;
  const run = spawnSync(env, ['-S', "probe 'a b' \"c d\" e''f"], { env: { PATH: bin }, encoding: 'utf8' });
  t.deepEqual(readProbe(run.stdout).args, ['a b', 'c d', 'ef']);
});

test('the wrapper table documents itself: docs/permissions.md names every wrapper', (t) => {
  const docs = readFileSync(new URL('../../../docs/permissions.md', import.meta.url), 'utf8');
  for (const name of ['timeout', 'nice', 'nohup', 'stdbuf', 'ionice', 'env', 'command']) t.regex(docs, new RegExp(`\`${name}\``), name);
});
