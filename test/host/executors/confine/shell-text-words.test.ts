// Shell text in the words of wrappers and variables zotbox does not read by name elsewhere (shell-text-words.ts), and
// any other word that parses as shell text (guessed), read as a script of its own by the hook reader. Expected words
// are written out by hand.
import test from 'ava';
import { type CommandWord, scriptWords } from '../../../../src/host/executors/confine/shell-command-words.js';
import { guessedTexts, wrapperTexts } from '../../../../src/host/executors/confine/shell-text-words.js';

const context = { scriptDirectory: '/ws/.husky', workingDirectory: '/ws', environment: { HOME: '/home/u' } };
const show = (word: CommandWord) => (word.kind === 'path' ? `${word.anchor}:${word.text}${word.tree ? '/**' : ''}${word.runs === true ? ' (runs)' : ''}` : `unresolved:${word.text}`);
const words = (text: string) => scriptWords(text, context).map(show);
const runsScript = (text: string) => words(text).includes('plain:tools/x.sh (runs)');

test('a wrapper that hands its option or operands to a shell: the text is read as a script (what it runs is run)', (t) => {
  for (const line of [
    'script -qec "sh tools/x.sh" /dev/null',
    'script --command="sh tools/x.sh" /dev/null',
    'script -c"sh tools/x.sh" /dev/null',
    'nix-shell --run "sh tools/x.sh"',
    'nix-shell -p jq --command "sh tools/x.sh"',
    'sg staff -c "sh tools/x.sh"',
    'sg staff "sh tools/x.sh"',
    'su -s /bin/sh --session-command "sh tools/x.sh" u',
    'watch -n 5 sh tools/x.sh',
    'entr -s "sh tools/x.sh"',
    'tmux new-session -d -s lint "sh tools/x.sh"',
    'tmux run-shell "sh tools/x.sh"',
    'parallel ::: "sh tools/x.sh"',
    'git rebase -x "sh tools/x.sh" HEAD~3',
    'git rebase --exec="sh tools/x.sh" HEAD~3',
    'git -C . difftool -y -x "sh tools/x.sh"',
    'git difftool --extcmd "sh tools/x.sh"',
    'git submodule foreach sh tools/x.sh',
    'git filter-branch --tree-filter "sh tools/x.sh" HEAD',
    'git clone -u "sh tools/x.sh" src dst',
  ])
    t.true(runsScript(line), line);
  // One word of shell text with no blank is a script too (not guessed: it holds no shell syntax), run as a whole.
  for (const line of [
    'nix-shell --run tools/x.sh',
    'sg staff -c tools/x.sh',
    'entr -s tools/x.sh',
    'tmux new-window tools/x.sh',
    'parallel ::: tools/x.sh',
    'git rebase -x tools/x.sh HEAD~3',
    'git difftool --extcmd tools/x.sh',
    'git push --receive-pack tools/x.sh origin',
  ])
    t.true(runsScript(line), line);
  t.deepEqual(words('script -qec tools/x.sh /dev/null'), ['plain:script (runs)', 'plain:-qec', 'plain:tools/x.sh (runs)', 'plain:/dev/null']);
});

test('a variable a tool runs as a command, set for a command, exported or through env, is read as a script; git -c by environment too', (t) => {
  for (const line of [
    'GIT_EXTERNAL_DIFF="sh tools/x.sh" git diff --cached',
    'GIT_SSH_COMMAND="sh tools/x.sh" git fetch',
    'GIT_EDITOR="tools/x.sh --wait" git commit --amend',
    'GIT_SEQUENCE_EDITOR="sh tools/x.sh" git rebase -i HEAD~2',
    'export GIT_PAGER="sh tools/x.sh"',
    'env PAGER="sh tools/x.sh" git log',
    'EDITOR="sh tools/x.sh" crontab -e',
    'VISUAL="sh tools/x.sh" git commit',
    'SHELL="sh tools/x.sh" script -qc make /dev/null',
    'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.l GIT_CONFIG_VALUE_0="!sh tools/x.sh" git l',
    `GIT_CONFIG_PARAMETERS="'diff.external'='sh tools/x.sh'" git diff`,
  ])
    t.true(runsScript(line), line);
  // A one-word value is named (protected, read on) as a `git -c core.editor=` value is.
  t.true(words('GIT_EDITOR=tools/x.sh git commit').includes('plain:tools/x.sh'));
});

test('git --exec-path=DIR and GIT_EXEC_PATH=DIR: the directory git runs its programs from is protected whole', (t) => {
  t.true(words('git --exec-path=tools lint').includes('plain:tools/** (runs)'));
  t.true(words('GIT_EXEC_PATH=tools git lint').includes('plain:tools/** (runs)'));
  // `git --exec-path` alone prints the directory: nothing to protect.
  t.false(words('git --exec-path').some((word) => word.endsWith('/** (runs)')));
});

test('shell text in a word of a program zotbox does not know is read as a script of its own (guessed)', (t) => {
  t.true(runsScript('some-wrapper --cmd "sh tools/x.sh"'));
  t.true(runsScript('some-wrapper --cmd="sh tools/x.sh"'));
  t.true(runsScript('some-wrapper "cd tools && sh x.sh; true"') || words('some-wrapper "cd tools && sh x.sh; true"').includes('plain:tools/x.sh (runs)'));
  t.true(runsScript('MY_TOOL_COMMAND="sh tools/x.sh" my-tool'));
  // Tcl's `spawn` runs its words as a program: read as shell text, the interpreter's script is found.
  t.true(runsScript('expect -c "spawn sh tools/x.sh"'));
});

test('a guessed word sh cannot parse names nothing and refuses no writer; a known one is unresolved', (t) => {
  // An apostrophe in a commit message: sh would refuse the text and run nothing.
  t.deepEqual(words(`git commit -m "don't break"`), ['plain:git (runs)', 'plain:commit', 'plain:-m', "plain:don't break"]);
  t.deepEqual(
    words(`script -qec "sh tools/it's.sh" /dev/null`).filter((word) => word.startsWith('unresolved')),
    [`unresolved:sh tools/it's.sh`],
  );
  t.deepEqual(
    words(`GIT_EDITOR="vim '+set tw=72" git commit`).filter((word) => word.startsWith('unresolved')),
    [`unresolved:vim '+set tw=72`],
  );
  // Behind a wrapper (timeout, env -S, trap, flock -c), shell text is known as such, not guessed: unresolved too.
  for (const [line, text] of [
    [`timeout 5 sh -c "sh tools/it's.sh"`, `sh tools/it's.sh`],
    [`env -S "sh tools/it's.sh"`, `sh tools/it's.sh`],
    [`trap "sh tools/it's.sh" EXIT`, `sh tools/it's.sh`],
    [`flock /tmp/l -c "sh tools/it's.sh"`, `sh tools/it's.sh`],
  ] as const)
    t.deepEqual(
      words(line).filter((word) => word.startsWith('unresolved')),
      [`unresolved:${text}`],
      line,
    );
});

test("a guessed word is not run as a whole, and its variables are its script's: a message with a variable refuses no writer", (t) => {
  t.deepEqual(words('git commit -m "fix the lint"'), ['plain:git (runs)', 'plain:commit', 'plain:-m', 'plain:fix the lint', 'plain:fix (runs)', 'plain:the', 'plain:lint']);
  t.deepEqual(
    words('for f in $(git diff --name-only); do grep -q "TODO $f" x; done').filter((word) => word.startsWith('unresolved')),
    [],
  );
});

test("a builtin's printed words and an interpreter's inline program are not guessed; a plain assignment is the shell's own", (t) => {
  t.deepEqual(guessedTexts(['echo', '\uE000 done'], 0, new Set()), new Map());
  t.deepEqual(guessedTexts(['printf', '%s done\n'], 0, new Set()), new Map());
  t.deepEqual(guessedTexts(['perl', '-e', 'do $ENV{X}'], 0, new Set()), new Map());
  t.deepEqual(guessedTexts(['python3', '-c', 'import x; x.run()'], 0, new Set()), new Map());
  t.deepEqual(guessedTexts(['X=a b'], 1, new Set()), new Map());
  t.deepEqual(guessedTexts(['export', 'X=sh x.sh'], 0, new Set()), new Map([[1, 'sh x.sh']]));
  t.deepEqual(guessedTexts(['X=sh x.sh', 'prog', 'a b'], 1, new Set([2])), new Map([[0, 'sh x.sh']]));
});

test('wrapperTexts: by index, the text each wrapper or variable hands to a shell', (t) => {
  t.deepEqual(wrapperTexts(['script', '-qec', 'make lint', '/dev/null']), new Map([[2, 'make lint']]));
  t.deepEqual(wrapperTexts(['watch', '-n', '5', 'make', 'lint']), new Map([[3, 'make lint']]));
  t.deepEqual(wrapperTexts(['parallel', '-j4', 'gzip', ':::', 'a b']), new Map([[2, 'gzip']]));
  t.deepEqual(
    wrapperTexts(['parallel', ':::', 'make a', 'make b']),
    new Map([
      [2, 'make a'],
      [3, 'make b'],
    ]),
  );
  t.deepEqual(wrapperTexts(['LESSOPEN=|tools/lesspipe %s', 'less', 'x']), new Map([[0, 'tools/lesspipe %s']]));
  t.deepEqual(wrapperTexts(['git', 'commit', '-m', 'x -x y']), new Map());
  t.deepEqual(wrapperTexts(['entr', 'make', 'lint']), new Map());
});
