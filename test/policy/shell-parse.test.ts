import test from 'ava';
import fc from 'fast-check';
import { execFileSync } from 'node:child_process';
import { chmodSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseShellCommand, type ShellAst } from '../../src/policy/shell-parse.js';
import { tempDir } from '../fixtures/temp.js';

/** A title that shows every invisible or non-ASCII character as an escape. */
const show = (text: string) => JSON.stringify(text).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

const argvOf = (ast: ShellAst) => ast.items.flatMap((item) => item.pipeline.commands.map((c) => c.argv));

const parsesTo = test.macro({
  exec(t, text: string, expected: string[][]) {
    const result = parseShellCommand(text);
    t.true(result.ok, result.ok ? '' : result.reason);
    if (result.ok) t.deepEqual(argvOf(result.ast), expected);
  },
  title: (_title, text: string) => `accepted: ${show(text)}`,
});

const denied = test.macro({
  exec(t, text: string, construct: string | RegExp) {
    const result = parseShellCommand(text);
    t.false(result.ok, `should be denied: ${JSON.stringify(text)}`);
    if (!result.ok) {
      if (typeof construct === 'string') t.is(result.construct, construct);
      else t.regex(result.construct, construct);
      t.true(result.reason.length > 10);
    }
  },
  title: (_title, text: string) => `denied: ${show(text).slice(0, 80)}`,
});

test(parsesTo, 'git status', [['git', 'status']]);
test(parsesTo, 'git status && grep x file', [
  ['git', 'status'],
  ['grep', 'x', 'file'],
]);
test(parsesTo, 'git log | grep foo | ls', [['git', 'log'], ['grep', 'foo'], ['ls']]);
test(parsesTo, "git log --format='%h;%s'", [['git', 'log', '--format=%h;%s']]);
test(parsesTo, 'git log --format="a|b"', [['git', 'log', '--format=a|b']]);
test(parsesTo, "'git' log", [['git', 'log']]);
test(parsesTo, 'g"i"t log', [['git', 'log']]);
test(parsesTo, 'git\tstatus', [['git', 'status']]);
test(parsesTo, 'git status || ls', [['git', 'status'], ['ls']]);
test(parsesTo, "grep -rn 'a\\|b' src", [['grep', '-rn', 'a\\|b', 'src']]);
test(parsesTo, 'echo "say \\"hi\\""', [['echo', 'say "hi"']]);
test(parsesTo, "echo ''", [['echo', '']]);
test(parsesTo, "ls '*.md'", [['ls', '*.md']]);

test("the and-or list keeps bash's left-to-right connectors", (t) => {
  const result = parseShellCommand('a && b || c ; d | e');
  t.true(result.ok);
  if (result.ok)
    t.deepEqual(
      result.ast.items.map((i) => [i.connector, i.pipeline.commands.map((c) => c.argv[0])]),
      [
        [null, ['a']],
        ['&&', ['b']],
        ['||', ['c']],
        [';', ['d', 'e']],
      ],
    );
});

test('leading assignments are separated from argv only when their name is unquoted, as in bash', (t) => {
  const first = (text: string) => {
    const result = parseShellCommand(text);
    return result.ok ? result.ast.items[0]!.pipeline.commands[0] : undefined;
  };
  t.deepEqual(first('A=1 B="x y" git log'), {
    assignments: [
      { name: 'A', value: '1' },
      { name: 'B', value: 'x y' },
    ],
    argv: ['git', 'log'],
  });
  t.deepEqual(first("'A=1' git"), { assignments: [], argv: ['A=1', 'git'] });
  t.deepEqual(first('git A=1'), { assignments: [], argv: ['git', 'A=1'] });
});

// Advisory classes (gate-rules §1 and spec B §6.4): each must be denied.
test(denied, 'git status & rm -rf ~', '&');
test(denied, 'git status &', '&');
test(denied, 'git status; rm -rf /; ', 'empty command');
test(denied, 'echo $(uname)', '$');
test(denied, 'echo `uname`', '`');
test(denied, 'echo "$(uname)"', '$ inside double quotes');
test(denied, 'echo "`uname`"', 'backtick inside double quotes');
test(denied, 'echo "$HOME"', '$ inside double quotes');
test(denied, 'echo ${IFS}x', '$');
test(denied, 'git ${IFS}status', '$');
test(denied, 'echo hi > /tmp/out', '>');
test(denied, 'cat < /etc/passwd', '<');
test(denied, 'echo ok\nrm -rf /', 'newline');
test(denied, 'echo ok\rrm -rf /', 'newline');
test(denied, 'echo ok\\\nrm', 'newline');
test(denied, 'git\u00a0status', 'invisible character');
test(denied, 'git\u2028status', 'invisible character');
test(denied, 'git\u200bstatus', 'invisible character');
test(denied, 'git status \u202e', 'invisible character');
test(denied, 'git\ufeffstatus', 'invisible character');
test(denied, 'git\u3000status', 'invisible character');
test(denied, 'git\u000bstatus', 'control character');
test(denied, 'git\u0085status', 'control character');
test(denied, 'git\u0000status', 'NUL');
test(denied, 'git status # ; rm', '#');
test(denied, 'git status#x', '#');
test(denied, '(git status)', '(');
test(denied, '{ git status; }', '{');
test(denied, '! git status', '!');
test(denied, 'if git status; then ls; fi', 'keyword if');
test(denied, 'time git status', 'keyword time');
test(denied, 'git status |& grep x', '|&');
test(denied, 'git status ;; ls', ';;');
test(denied, 'git status ;& ls', ';&');
test(denied, 'git status ||| ls', 'empty command');
test(denied, 'git status &&', 'empty command');
test(denied, '; git status', 'empty command');
test(denied, 'X=1', 'assignment only');
test(denied, 'X=1 && git status', 'assignment only');
test(denied, '', 'empty command');
test(denied, '   ', 'empty command');
test(denied, "echo 'unterminated", 'unterminated quote');
test(denied, 'echo "unterminated', 'unterminated quote');
test(denied, 'ls *.md', '*');
test(denied, 'ls file?.txt', '?');
test(denied, 'ls [ab].txt', '[');
test(denied, 'cat ~/.ssh/id_rsa', '~');
// Outside quotes a backslash makes the next character literal, as bash does, for quotes, blanks and shell characters.
test(parsesTo, "echo 'it'\\''s'", [['echo', "it's"]]);
test(parsesTo, "git commit -m 'it'\\''s done'", [['git', 'commit', '-m', "it's done"]]);
test(parsesTo, "echo it\\'s", [['echo', "it's"]]);
test(parsesTo, 'echo a\\ b', [['echo', 'a b']]);
test(parsesTo, 'echo \\"x\\" \\\\', [['echo', '"x"', '\\']]);
test(parsesTo, 'find . -exec grep -l x {} \\;', [['find', '.', '-exec', 'grep', '-l', 'x', '{}', ';']]);
test(parsesTo, 'echo \\$HOME \\`id\\` \\| \\& \\< \\> \\( \\) \\{ \\} \\# \\[ \\] \\! \\~ \\=', [['echo', '$HOME', '`id`', '|', '&', '<', '>', '(', ')', '{', '}', '#', '[', ']', '!', '~', '=']]);
test(parsesTo, 'find . -exec cat {}; ls', [['find', '.', '-exec', 'cat', '{}'], ['ls']]);
test(parsesTo, "X=it\\'s env", [['env']]);
test(denied, 'echo a\\nb', '\\');
test(denied, 'echo a\\1', '\\');
test(denied, 'echo x\\', '\\');
test(denied, 'ls \\*.md', '\\');
test(denied, 'ls \\?', '\\');
test(denied, 'echo {a,b}', '{');
test(denied, 'echo {}x', '{');
test(denied, 'echo x{}', '{');
test(denied, "echo {}'x'", '{');
test(denied, 'echo "a\\nb"', 'backslash inside double quotes');
test(denied, 'echo "hi!"', '! inside double quotes');
test(denied, 'a '.repeat(5000), 'length');
test(denied, Array.from({ length: 40 }, () => 'true').join(' ; '), 'too many commands');

test('random text never throws, and anything accepted has no empty argv (property)', (t) => {
  t.notThrows(() =>
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'grapheme-composite' }),
          fc.string({ unit: 'binary' }),
          fc.array(fc.constantFrom('a', ' ', "'", '"', '\\', '|', '&', ';', '$', '=', '\t', '\n', 'é', '\u00a0', '#', '(', '*', '~'), { maxLength: 30 }).map((parts) => parts.join('')),
        ),
        (text) => {
          const result = parseShellCommand(text);
          return !result.ok || result.ast.items.every((item) => item.pipeline.commands.every((c) => c.argv.length > 0 && c.argv[0]!.length >= 0));
        },
      ),
      { numRuns: 5000 },
    ),
  );
});

// Differential: what the parser approves, bash executes with the same argv.
// One append per record: the stages of a pipeline run at the same time.
const LOGGER = `#!/bin/sh
us=$(printf '\\037')
rec=\${0##*/}
for a in "$@"; do rec="$rec$us$a"; done
printf '%s\\036' "$rec" >> "$ZB_ARGV_LOG"
`;

const fragment = fc.oneof(
  fc.stringMatching(/^[a-zA-Z0-9._=:,@%+-]{1,6}$/),
  fc.stringMatching(/^[^'\u0000]{0,6}$/).map((s) => `'${s}'`),
  fc.stringMatching(/^[a-zA-Z0-9 ;|&()<>*?~#{}=._-]{0,6}$/).map((s) => `"${s}"`),
  fc.constant('"\\""'),
  fc.constant('"\\\\"'),
  fc.constantFrom("'", '"', '\\', ' ', ';', '|', '&', '$', '`', '<', '>', '(', ')', '{', '}', '#', '[', ']', '!', '~', '=').map((c) => `\\${c}`),
  fc.constant('{}'),
);
const wordArb = fc.array(fragment, { minLength: 1, maxLength: 3 }).map((parts) => parts.join(''));
const commandArb = fc.tuple(fc.constantFrom('cmda', 'cmdb', "'cmdc'", 'c"md"a'), fc.array(wordArb, { maxLength: 4 })).map(([name, args]) => [name, ...args].join(' '));
const lineArb = fc
  .tuple(commandArb, fc.array(fc.tuple(fc.constantFrom(' && ', ' || ', ' ; ', ' | ', '&&', '|'), commandArb), { maxLength: 3 }))
  .map(([first, rest]) => first + rest.map(([op, cmd]) => op + cmd).join(''));

test('approved commands run in bash with exactly the argv the AST holds (differential)', (t) => {
  const dir = tempDir(t, 'zb-diff-');
  const logger = path.join(dir, 'logger');
  writeFileSync(logger, LOGGER);
  chmodSync(logger, 0o755);
  for (const name of ['cmda', 'cmdb', 'cmdc']) symlinkSync(logger, path.join(dir, name));
  let approved = 0;
  let runs = 0;
  fc.assert(
    fc.property(lineArb, (line) => {
      const result = parseShellCommand(line);
      if (!result.ok) return true;
      approved++;
      const log = path.join(dir, `log${runs++}`);
      writeFileSync(log, '');
      execFileSync('/bin/bash', ['-c', line], { env: { PATH: dir, ZB_ARGV_LOG: log }, stdio: 'ignore' });
      const seen = readFileSync(log, 'utf8')
        .split('\u001e')
        .filter(Boolean)
        .map((entry) => entry.split('\u001f'))
        .sort();
      // Every logged command succeeds, so && continues and || stops: the AST tells which run.
      const expected: string[][] = [];
      let status = 0;
      for (const item of result.ast.items) {
        const runsThis = item.connector === null || item.connector === ';' || (item.connector === '&&' ? status === 0 : status !== 0);
        if (runsThis) {
          expected.push(...item.pipeline.commands.map((c) => c.argv.map((a, i) => (i === 0 ? path.basename(a) : a))));
          status = 0;
        }
      }
      t.deepEqual(seen, expected.sort(), line);
      return true;
    }),
    { numRuns: 400 },
  );
  t.true(approved > 100, `${approved} of the generated commands were approved and compared`);
});
