// `zotbox completion bash|zsh|fish` (issue 13, item 7): scripts generated from the
// command table. The bash script is sourced in a real bash and asked for
// completions the way bash asks (COMP_WORDS, COMP_CWORD, the completion function).
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { COMMON_OPTIONS, type CommandSpec } from '../../src/cli/command-spec.js';
import { COMMANDS, RUN } from '../../src/cli/commands.js';
import { renderBashCompletion } from '../../src/cli/completion-bash.js';
import { buildCompletionModel } from '../../src/cli/completion-model.js';
import { runCliCaptured } from '../fixtures/cli-harness.js';
import { tempDir } from '../fixtures/temp.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;

async function script(shell: string): Promise<string> {
  const result = await runCliCaptured(['completion', shell]);
  if (result.status !== 0) throw new Error(result.stderr);
  return result.stdout;
}

/** What bash offers for `words`, the cursor on the last word, with `scriptText` sourced in `cwd`. */
function bashComplete(scriptText: string, words: readonly string[], cwd: string): string[] {
  const file = path.join(cwd, '.zotbox-completion.bash');
  writeFileSync(file, scriptText);
  const program = 'source "$1"; shift; COMP_CWORD=$(($# - 1)); COMP_WORDS=("$@"); _zotbox; printf "%s\\n" "${COMPREPLY[@]}"';
  const result = spawnSync('bash', ['--norc', '--noprofile', '-c', program, 'bash', file, ...words], { cwd, encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin' } });
  if (result.status !== 0 || result.stderr !== '') throw new Error(`bash failed (${String(result.status)}): ${result.stderr}`);
  return result.stdout
    .split('\n')
    .filter((line) => line !== '')
    .sort();
}

for (const shell of SHELLS) {
  test(`the ${shell} script names every command, option and argument word of the command table`, async (t) => {
    const text = await script(shell);
    for (const command of COMMANDS) {
      t.true(text.includes(command.name), `${shell}: command ${command.name}`);
      for (const option of [...command.options, ...COMMON_OPTIONS]) {
        t.regex(text, new RegExp(`(^|[^\\w-])(--)?${option.name}\\b`), `${shell}: ${command.name} --${option.name}`);
        if (option.short !== undefined) t.true(text.includes(`-${option.short}`) || text.includes(`-s ${option.short}`), `${shell}: -${option.short}`);
        if (option.valueName?.includes('|') === true) for (const word of option.valueName.split('|')) t.true(text.includes(word), `${shell}: ${option.name} ${word}`);
      }
      for (const argument of command.arguments) {
        if (/^[a-z]+(\|[a-z]+)+$/.test(argument.name)) for (const word of argument.name.split('|')) t.true(text.includes(word), `${shell}: ${command.name} ${word}`);
      }
    }
  });
}

test('bash: "zotbox r" completes to run, the one command starting with r', async (t) => {
  t.deepEqual(bashComplete(await script('bash'), ['zotbox', 'r'], tempDir(t)), ['run']);
});

test('bash: "zotbox run --" offers exactly the long options the table gives run', async (t) => {
  const offered = bashComplete(await script('bash'), ['zotbox', 'run', '--'], tempDir(t));
  t.deepEqual(offered, [...RUN.options, ...COMMON_OPTIONS].map((o) => `--${o.name}`).sort());
  for (const expected of ['--cwd', '--replay', '--yes', '--no-session', '--help', '--debug']) t.true(offered.includes(expected), expected);
  for (const foreign of ['--name', '--expect', '--version']) t.false(offered.includes(foreign), foreign);
});

test('bash: the first word offers the commands and help, or the global options', async (t) => {
  const text = await script('bash');
  const dir = tempDir(t);
  t.deepEqual(bashComplete(text, ['zotbox', ''], dir), [
    'check',
    'completion',
    'consent',
    'data',
    'doctor',
    'eval',
    'help',
    'init',
    'inspect',
    'models',
    'pack',
    'run',
    'sessions',
    'unpack',
    'verify',
  ]);
  t.deepEqual(bashComplete(text, ['zotbox', '-'], dir), ['--debug', '--help', '--version', '-V', '-h']);
  t.deepEqual(bashComplete(text, ['zotbox', '--debug', 'ch'], dir), ['check'], 'a global option before the command');
  t.deepEqual(bashComplete(text, ['zotbox', 'help', 'co'], dir), ['completion', 'consent']);
});

test('bash: argument words come from the table, at their position', async (t) => {
  const text = await script('bash');
  const dir = tempDir(t);
  t.deepEqual(bashComplete(text, ['zotbox', 'check', 'agent', ''], dir), ['bash', 'edit', 'net', 'read', 'write']);
  t.deepEqual(bashComplete(text, ['zotbox', 'check', '--cwd', 'ws', 'agent', 'w'], dir), ['write'], 'an option value is not an argument');
  t.deepEqual(bashComplete(text, ['zotbox', 'consent', ''], dir), ['list', 'revoke']);
  t.deepEqual(bashComplete(text, ['zotbox', 'completion', ''], dir), ['bash', 'fish', 'zsh']);
});

test('bash: option values are completed by their kind: words, directories, files, or nothing for free text', async (t) => {
  const text = await script('bash');
  const dir = tempDir(t);
  mkdirSync(path.join(dir, 'sub'));
  writeFileSync(path.join(dir, 'notes.json'), '{}');
  t.deepEqual(bashComplete(text, ['zotbox', 'run', 'agent', '--confine', ''], dir), ['off', 'required']);
  t.deepEqual(bashComplete(text, ['zotbox', 'run', 'agent', '--cwd', 's'], dir), ['sub']);
  t.deepEqual(bashComplete(text, ['zotbox', 'run', 'agent', '--cwd', 'n'], dir), [], 'a file is not a directory');
  t.deepEqual(bashComplete(text, ['zotbox', 'run', 'agent', '--replay', 'n'], dir), ['notes.json']);
  t.deepEqual(bashComplete(text, ['zotbox', 'run', 'agent', '--model', ''], dir), [], 'a model id is free text');
  t.deepEqual(bashComplete(text, ['zotbox', 'run', 'n'], dir), ['notes.json'], 'AGENT is a path');
  t.deepEqual(bashComplete(text, ['zotbox', 'run', '--model', 'x', '--no-s'], dir), ['--no-session'], 'the option value was consumed');
});

test('bash: after "--" every word is an argument, never an option', async (t) => {
  const dir = tempDir(t);
  writeFileSync(path.join(dir, '--odd-name'), '');
  t.deepEqual(bashComplete(await script('bash'), ['zotbox', 'inspect', '--', '--'], dir), ['--odd-name']);
});

test('a command added to the table is completed without editing the scripts', (t) => {
  const frob: CommandSpec = {
    name: 'frobnicate',
    summary: 'Frobnicate.',
    usage: ['frobnicate MODE'],
    description: 'x',
    arguments: [{ name: 'fast|slow', description: 'how' }],
    options: [{ name: 'level', type: 'string', valueName: 'low|high', description: 'How much.' }],
    exitStatus: [],
    examples: [],
    minPositionals: 1,
    maxPositionals: 1,
  };
  const text = renderBashCompletion(buildCompletionModel([...COMMANDS, frob]), 'test');
  const dir = tempDir(t);
  t.deepEqual(bashComplete(text, ['zotbox', 'fr'], dir), ['frobnicate']);
  t.deepEqual(bashComplete(text, ['zotbox', 'frobnicate', ''], dir), ['fast', 'slow']);
  t.deepEqual(bashComplete(text, ['zotbox', 'frobnicate', '--level', ''], dir), ['high', 'low']);
  t.deepEqual(bashComplete(text, ['zotbox', 'help', 'fr'], dir), ['frobnicate']);
});

test('the zsh script is a #compdef function and the fish script a set of complete lines', async (t) => {
  t.true((await script('zsh')).startsWith('#compdef zotbox\n'));
  t.regex(await script('fish'), /^complete -c zotbox -n '__zotbox_command_is run' -l cwd -x -a '\(__fish_complete_directories \(commandline -ct\)\)' -d /m);
});

test('a shell without a script is a usage error naming the shells', async (t) => {
  const result = await runCliCaptured(['completion', 'tcsh']);
  t.is(result.status, 2);
  t.regex(result.stderr, /^zotbox: error\[ZB_CLI_USAGE\]: no completion for the shell "tcsh"; use one of bash, zsh, fish\./);
  t.is(result.stdout, '');
});
