import test from 'ava';
import { COMMANDS } from '../src/cli/commands.js';
import { ZotboxError } from '../src/errors.js';
import { formatError } from '../src/cli/error-output.js';
import { ZOTBOX_VERSION } from '../src/version.js';
import { runCliCaptured } from './fixtures/cli-harness.js';

test('--help lists every command with its summary and exits 0', async (t) => {
  const result = await runCliCaptured(['--help']);
  t.is(result.status, 0);
  for (const command of COMMANDS) t.regex(result.stdout, new RegExp(`\\n  ${command.name} +${escape(command.summary)}`));
  t.is(result.stderr, '');
});

test('--version and -V print the package version', async (t) => {
  for (const flag of ['--version', '-V']) {
    const result = await runCliCaptured([flag]);
    t.is(result.status, 0);
    t.is(result.stdout, `${ZOTBOX_VERSION}\n`);
  }
});

test('every command has help with usage, options, exit status and examples', async (t) => {
  for (const command of COMMANDS) {
    for (const argv of [
      [command.name, '--help'],
      [command.name, '-h'],
      ['help', command.name],
    ]) {
      const result = await runCliCaptured(argv);
      t.is(result.status, 0, argv.join(' '));
      t.regex(result.stdout, new RegExp(`Usage:\\n  zotbox ${command.name}`), argv.join(' '));
      t.regex(result.stdout, /Exit status:/);
      t.regex(result.stdout, /Examples:/);
      for (const option of command.options) t.true(result.stdout.includes(`--${option.name}`), `${command.name} --${option.name}`);
    }
  }
});

test('no command is a usage error that prints the command list to stderr and exits 2', async (t) => {
  const result = await runCliCaptured([]);
  t.is(result.status, 2);
  t.regex(result.stderr, /Commands:/);
  t.regex(result.stderr, /error\[ZB_CLI_USAGE\]: a command is required/);
});

test('an unknown command exits 2 with ZB_CLI_UNKNOWN_COMMAND and names the commands', async (t) => {
  const result = await runCliCaptured(['frobnicate']);
  t.is(result.status, 2);
  t.regex(result.stderr, /^zotbox: error\[ZB_CLI_UNKNOWN_COMMAND\]: unknown command 'frobnicate'.*pack, inspect/);
});

test('an unknown option exits 2 with ZB_CLI_USAGE and a pointer to the command help', async (t) => {
  const result = await runCliCaptured(['inspect', 'x', '--frob']);
  t.is(result.status, 2);
  t.regex(result.stderr, /error\[ZB_CLI_USAGE\]: unknown option '--frob'.*zotbox inspect --help/);
  t.is(result.stderr.split('\n').filter(Boolean).length, 1, 'one line, no stack trace');
});

test('a wrong number of arguments exits 2 and quotes the usage', async (t) => {
  const result = await runCliCaptured(['unpack', 'only-one.zot']);
  t.is(result.status, 2);
  t.regex(result.stderr, /zotbox unpack takes 2 arguments, got 1\. Usage: zotbox unpack FILE\.zot DIR/);
});

test('an unknown global option before the command exits 2', async (t) => {
  const result = await runCliCaptured(['--frob', 'inspect']);
  t.is(result.status, 2);
  t.regex(result.stderr, /ZB_CLI_USAGE/);
});

test('a failure prints one line without a stack trace unless --debug or ZOTBOX_DEBUG=1', (t) => {
  const error = new ZotboxError('ZB_INTERNAL_BUG', 'it broke', { cause: new Error('underlying') });
  const plain = formatError(error, false);
  t.is(plain, 'zotbox: error[ZB_INTERNAL_BUG]: it broke\n');
  const debug = formatError(error, true);
  t.regex(debug, /ZotboxError: it broke\n\s+at /);
  t.regex(debug, /caused by: Error: underlying/);
});

test('--debug and ZOTBOX_DEBUG=1 turn on stack traces at the command line', async (t) => {
  const plain = await runCliCaptured(['frob']);
  t.notRegex(plain.stderr, /\n\s+at /);
  for (const run of [runCliCaptured(['--debug', 'frob']), runCliCaptured(['frob'], { env: { ZOTBOX_DEBUG: '1' } })]) {
    const result = await run;
    t.is(result.status, 2);
    t.regex(result.stderr, /\n\s+at /);
  }
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
