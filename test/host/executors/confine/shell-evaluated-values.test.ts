// Values bash evaluates where they are used (shell-evaluated-values.ts), read through a whole script as the aftercare
// reads a hook (scriptWords): a use of a value the script may have set to code is unresolved; ordinary counting is not.
// The expected outcomes are written out by hand.
import test from 'ava';
import { scriptWords } from '../../../../src/host/executors/confine/shell-command-words.js';
import { evaluatedUses } from '../../../../src/host/executors/confine/shell-evaluated-values.js';

const refused = (text: string) =>
  scriptWords(text, { scriptDirectory: '/ws/.githooks', workingDirectory: '/ws', environment: { HOME: '/home/u' } })
    .filter((word) => word.kind === 'unresolved')
    .map((word) => word.text);

test('a value read or computed, then prompt-expanded, traced by PS4, or named indirectly, is unresolved', (t) => {
  for (const text of [
    'read -r X <<< \'$(sh tools/lint.sh)\'\necho "${X@P}"',
    'read -r X <<\'EOF\'\n$(sh tools/lint.sh)\nEOF\necho "${X@P}"',
    "printf -v X '%s(sh tools/lint.sh)' '$'\necho \"${X@P}\"",
    'X=a\nX+=\'$(sh tools/lint.sh)\'\necho "${X@P}"',
    'read -r PS4 < .trace\nset -x\ntrue',
    'X=$(cat .name)\necho "${!X}"',
    'a=(\'$(sh tools/lint.sh)\')\necho "${a[0]@P}"',
  ])
    t.true(refused(text).length > 0, text);
});

test('arithmetic on a value the script may have set to code is unresolved, in every arithmetic place', (t) => {
  for (const use of ['(( X ))', 'echo $(( X + 1 ))', 'let Y=X+1', '[[ $X -gt 0 ]]', 'echo "${a[$X]}"', 'a[$X]=1', 'echo "${s:X:1}"']) {
    const text = `X=$(cat .count)\n${use}`;
    t.true(refused(text).length > 0, text);
  }
  // Places found by scanning: a ] inside [[ ]], let after a keyword, lines, old $[ ], an element's length, quoted
  // subscripts, slices, integer declarations.
  for (const use of [
    'files=(a b)\nif [[ ${#files[@]} -gt $X ]]; then :; fi',
    'if let "X > 1"; then :; fi',
    'if ((\n  X > 1\n)); then :; fi',
    'echo $[X + 1]',
    'a=(1)\necho "${#a[X]}"',
    "unset 'a[X]'",
    "test -v 'a[X]'",
    'files=(a b)\necho "${files[@]:0:$X}"',
    'echo "${@:X}"',
    'declare -i N=$X',
    'f() { local -i n=$1; }',
  ]) {
    const text = `X=$(cat .count)\n${use}`;
    t.true(refused(text).length > 0, text);
  }
  // A name the script does not set comes from outside it (the environment, a script that sources or runs it), and
  // so does every name where something may set any (a computed export, eval, a sourced file); a default that assigns,
  // a command's output written straight in, a slice of an element or of an argument.
  for (const text of [
    '(( JOBS > 1 ))',
    'MAX=3\n. ./lib.sh\n(( MAX > 1 ))',
    'MAX=3\nexport $(cat .env | xargs)\n(( MAX > 1 ))',
    ': "${MAX:=$(cat .limits/x)}"\n(( MAX > 1 ))',
    'MAX=\n: "${MAX:=$(cat .limits/x)}"\n(( MAX > 1 ))',
    'echo "${PROMPT_TEXT@P}"',
    'if [[ $(cat .limits/x) -gt 1 ]]; then :; fi',
    'if [[ $(cat .limits/x 2>/dev/null || echo 3) -gt 1 ]]; then :; fi',
    'if [[ ${MAX:-$(cat .limits/x 2>/dev/null || echo 3)} -gt 1 ]]; then :; fi',
    'if [[ ${MAX:-$(cat .limits/x)} -gt 1 ]]; then :; fi',
    'let "N=$(cat .limits/x)"',
    'echo "${a[$(cat .limits/x)]}"',
    'MAX=$(cat x)\necho "${a[0]:0:$MAX}"',
    'MAX=$(cat x)\necho "${1:0:$MAX}"',
    'n=$(grep -c TODO f\ncat .limits/x)\n(( n > 1 ))',
  ])
    t.true(refused(text).length > 0, text);
  // A name operand written with an expansion is evaluated like a subscript; assignments the reader does not record;
  // bash's own numbers set by the script; a default that keeps a caller's or sourcer's value.
  for (const text of [
    'while read -r v; do [[ -n ${!v:-} ]] || exit 1; done < .required',
    'read -r v < .name\n[[ -v $v ]] && exit 1',
    'read -r v < .name\ntest -v "$v"',
    'while IFS= read -r line; do printf -v "${line%%=*}" %s "${line#*=}"; done < .env',
    'MAX=3\nexport -- $(cat .env | xargs)\n(( MAX > 1 ))',
    'MAX=3\nexport \\\n  $(cat .env | xargs)\n(( MAX > 1 ))',
    'MAX=3\n\\source lib.sh\n(( MAX > 1 ))',
    'MAX=3\nif true; then for MAX in $(cat .n); do :; done; fi\n(( MAX > 1 ))',
    'MAX=3\n2>/dev/null MAX=$(cat .n)\n(( MAX > 1 ))',
    'OPTIND=$(cat .n)\n(( OPTIND > 1 ))',
    '[ -n "$MAX" ] || MAX=4\n(( MAX > 1 ))',
    'if [ -n "$BIG" ]; then\n  MAX=2048\nfi\n(( MAX > 1 ))',
    'case $1 in\n  x)\n    MAX=3 ;;\nesac\n(( MAX > 1 ))',
    'f() {\n  local MAX=3\n}\n(( MAX > 1 ))',
    '(\n  MAX=3\n)\n(( MAX > 1 ))',
    'MAX=3 true\n(( MAX > 1 ))',
    'cat <<EOF\nMAX=3\nEOF\n(( MAX > 1 ))',
    'MAX=$(( MAX * 1024 ))\n(( MAX > 1 ))',
    'MAX="$MAX"\n(( MAX > 1 ))',
    'if [ -f x ]; then MAX=3; fi\n(( MAX > 1 ))',
  ])
    t.true(refused(text).length > 0, text);
  // A positional parameter is a caller's argument: anything.
  t.true(refused('check() { if (( $1 > 10 )); then echo big; fi; }').length > 0);
  // Through another name: Y's value is the name X, whose value is evaluated in turn.
  t.true(refused('read -r X < f\nY=X\n(( Y ))').length > 0);
});

test('counting stays ordinary: numbers, counts, lengths, arithmetic of those, a loop counter, an associative key', (t) => {
  for (const text of [
    'n=$(git diff --cached --name-only | wc -l)\nif (( n > 0 )); then echo many; fi',
    'n=$(grep -c TODO src/a.c)\n[[ $n -gt 3 ]] && exit 1',
    'count=0\ncount=$((count + 1))\necho "$(( count * 2 ))"',
    'n=${#files[@]}\n(( n == 0 )) && exit 0',
    'for ((i = 0; i < ${#files[@]}; i++)); do :; done',
    'mapfile -t files < list\nfor ((i=0; i<${#files[@]}; i++)); do echo "${files[i]}"; done',
    'n=$(stat -c %s big.bin)\n(( n > 1000000 )) && exit 1',
    'X=$(cat .count)\necho $(( ${#X} + 1 ))',
    'PS4="+ ${BASH_SOURCE}:${LINENO}: "\nset -x',
    'branch=$(git rev-parse --abbrev-ref HEAD)\n[[ "$branch" == main ]] && exit 1',
  ])
    t.deepEqual(refused(text), [], text);
});

test("an associative array's key is a string, not arithmetic; an indexed array's is", (t) => {
  const f = { values: new Map(), unknown: new Set(['f']), expansions: [] };
  t.deepEqual(evaluatedUses('declare -A seen\necho "${seen[$f]}"', f, false), []);
  t.is(evaluatedUses('declare -a seen\necho "${seen[$f]}"', f, false).length, 1);
});

test("a sourced file's names may hold its sourcer's values (readonly, declare -i, a DEBUG trap): arithmetic on any refuses there, not in a script run", (t) => {
  const context = { scriptDirectory: '/ws/.githooks', workingDirectory: '/ws', environment: { HOME: '/home/u' } };
  const unresolved = (text: string, sourced: boolean) =>
    scriptWords(text, sourced ? { ...context, sourced: true } : context)
      .filter((word) => word.kind === 'unresolved')
      .map((word) => word.text);
  for (const text of ['MAX=3\n(( MAX > 1 )) && echo big', '(( n = 0 ))\n(( n++ ))\n[[ $n -gt 3 ]] && exit 1', 'PS4="+ ${LINENO}: "\nset -x']) {
    t.true(unresolved(text, true).length > 0, text);
    t.deepEqual(unresolved(text, false), [], text);
  }
});

test('review s91n: what bash reads decides the top level (a comment ending in a backslash, a # line inside a quote); an alias in any spelling', (t) => {
  for (const text of [
    '# note C:\\\nif [ -n "$BIG" ]; then\n  MAX=2048\nfi\n(( MAX > 1 ))',
    "x='\n#'; if [ -n \"$BIG\" ]; then y='\n'\nMAX=2048\nfi\n(( MAX > 1 ))",
    "shopt -s expand_aliases\n'alias' on_big='if true; then'\non_big\nMAX=2048\nfi\n(( MAX > 1 ))",
    'echo "unclosed\nMAX=3\n(( MAX > 1 ))',
  ])
    t.true(refused(text).length > 0, text);
  t.deepEqual(refused('# a comment\nmax=500 # the limit\nsize=$(stat -c %s big.bin)\n(( size > max )) && exit 1'), []);
  // Text the reader cannot read to its end (a quote inside `${…}` it takes wrongly) has no name whose value is its own,
  // arithmetic's own names too.
  t.true(refused("echo ${x:-'}'}\n(( n = 0 ))\n(( n++ ))\n(( n > 3 )) && exit 1").length > 0);
  t.true(refused('(( n = 0 ))\n(( n++ ))\n(( n > 3 )) && exit 1\ncat <<EOF\nbody').length > 0);
  t.deepEqual(refused('# run as: ./hook \\\nmax=500\nsize=$(stat -c %s big.bin)\n(( size > max )) && exit 1'), []);
});

test("review s95r: a value assigned to bash's own integer names is evaluated as arithmetic (RANDOM, OPTIND)", (t) => {
  for (const text of ['RANDOM=$(cat .limits/seed)', 'seed=$(cat .limits/seed)\nRANDOM=$seed', 'OPTIND=$(cat .limits/x)']) t.true(refused(text).length > 0, text);
  t.deepEqual(refused('RANDOM=42\nOPTIND=1'), []);
});

test('review s95r: a "+" option before -i, a quoted or expanded closer, a name glued to an expansion, a name spelled with quotes', (t) => {
  for (const text of [
    // An integer declaration whatever option comes first; a computed declaration after a "+" option.
    'declare +x -i n\nn=$(cat .limits/max.txt)',
    'k=$(cat .limits/k)\ndeclare +x "$k=1"',
    // The closer of [[ ]] or (( )) inside quotes or an expansion closes nothing.
    'MAX=$(cat .limits/max.txt)\nkind=x\nif [[ $kind == "]]" || MAX -gt 1 ]]; then :; fi',
    "MAX=$(cat .limits/max.txt)\nkind=x\nif [[ $kind == ']]' || MAX -gt 1 ]]; then :; fi",
    'MAX=$(cat .limits/max.txt)\nkind=x\nif [[ ${kind//]]/} == x || MAX -gt 1 ]]; then :; fi',
    'MAX=$(cat .limits/max.txt)\nx=1\nif (( ${x//)/} > 0 && MAX > 1 )); then :; fi',
    'MAX=$(cat .limits/max.txt)\nx=1\nif (( "$x)" > 0 || MAX > 1 )); then :; fi',
    // A double-quoted command substitution's own quotes, a backslash, and text bash cannot print ($'…' as written).
    'MAX=$(cat .limits/max.txt)\nif [[ "$(echo "]]")" == x || MAX -gt 1 ]]; then :; fi',
    'MAX=$(cat .limits/max.txt)\nif [[ "$(echo " ]] ")" == x || MAX -gt 1 ]]; then :; fi',
    // A `=~` pattern's parentheses may hold blanks and a `]]` (bash reads `( ]] )` as the pattern's group).
    'MAX=$(cat .limits/max.txt)\nx=a\nif [[ $x =~ ( ]] ) || MAX -gt 1 ]]; then :; fi',
    'MAX=$(cat .limits/max.txt)\nkind=x\nif [[ $kind == \\]] || MAX -gt 1 ]]; then :; fi',
    "MAX=$(cat .limits/max.txt)\nif [[ $'\\'' == \"x']]\" || MAX -gt 1 ]]; then :; fi\n(",
    // A name glued to an expansion in a value.
    'MAX=$(cat .limits/max.txt)\nprefix=\nlimit=${prefix}MAX\nif (( limit > 1 )); then :; fi',
    // A name another value spells, with quotes or a backslash, evaluated before the name's own assignment.
    'v=MA\\X\nif (( v > 1 )); then :; fi\nMAX=3',
    'v=M"A"X\nif (( v > 1 )); then :; fi\nMAX=3',
    'M=1\nA=1\nX=1\nif (( M"A"X > 1 )); then :; fi\nMAX=3',
  ])
    t.true(refused(text).length > 0, text);
  // Ordinary: quoted words in [[ ]] before a count's comparison, a count glued to nothing.
  for (const text of ['n=$(git diff --cached --name-only | wc -l)\nkind=x\nif [[ $kind == "]]" ]] && [[ $n -gt 1 ]]; then :; fi', 'declare +x -i n=3\n(( n > 1 ))'])
    t.deepEqual(refused(text), [], text);
});

test('quotes and expansions nested past the bound are read as holding the rest of the text: no stack overflow', (t) => {
  t.notThrows(() => refused(`(( ${'"$('.repeat(50_000)} ))`));
});

test('review s95r: a function or an alias named like a runner runs in this shell: what it is handed shares it', (t) => {
  const context = { scriptDirectory: '/ws/.githooks', workingDirectory: '/ws', environment: { HOME: '/home/u' } };
  const invocations = (text: string) =>
    scriptWords(text, context)
      .filter((word) => word.kind === 'path' && word.text.endsWith('scripts/lib.sh'))
      .map((word) => (word.kind === 'path' ? { runner: word.runner, newProcess: word.newProcess } : {}));
  t.deepEqual(invocations('bash scripts/lib.sh'), [{ runner: 'bash', newProcess: undefined }]);
  // Read both ways: as the runner it is named like, and as sharing this shell.
  const both = [
    { runner: 'bash', newProcess: undefined },
    { runner: undefined, newProcess: undefined },
  ];
  t.deepEqual(invocations('bash() { . "$@"; }\nbash scripts/lib.sh'), both);
  t.deepEqual(invocations('function bash { . "$@"; }\nbash scripts/lib.sh'), both);
  t.deepEqual(invocations('shopt -s expand_aliases\nalias bash=.\nbash scripts/lib.sh'), both);
  // A program word read both ways is kept once, as sharing the shell (the stricter reading).
  t.deepEqual(invocations('./scripts/lib.sh() { :; }\n./scripts/lib.sh'), [{ runner: undefined, newProcess: undefined }]);
  // Where a command may be a function or an alias the script does not spell out: an alias in any spelling, a file it
  // sources, functions handed to it by its runner or in the user's environment (review s97t).
  const shared = both;
  t.deepEqual(invocations("shopt -s expand_aliases\nalias 'bash=.'\nbash scripts/lib.sh"), shared);
  t.deepEqual(invocations('. scripts/funcs.sh\nbash scripts/lib.sh'), shared);
  // Text this shell reads may define one (review s99v), and so may the file BASH_ENV names in the user's environment.
  t.deepEqual(invocations('eval $\'bash() { \\x2e "$@"; }\'\nbash scripts/lib.sh'), shared);
  t.deepEqual(invocations("trap 'bash() { :; }' DEBUG\nbash scripts/lib.sh"), shared);
  const handed = (extra: object) =>
    scriptWords('bash scripts/lib.sh', { ...context, ...extra })
      .filter((word) => word.kind === 'path' && word.text.endsWith('scripts/lib.sh'))
      .map((word) => (word.kind === 'path' ? { runner: word.runner, newProcess: word.newProcess } : {}));
  t.deepEqual(handed({ inheritsFunctions: true }), shared);
  t.deepEqual(handed({ environment: { HOME: '/home/u', 'BASH_FUNC_bash%%': '() { . "$@"; }' } }), shared);
  t.deepEqual(handed({ environment: { HOME: '/home/u', BASH_ENV: '/home/u/.bashenv' } }), shared);
  // Not a shell's operand: `python3 x.py` stays python's where no function is named python3.
  t.deepEqual(
    scriptWords('. scripts/funcs.sh\npython3 scripts/x.py', context)
      .filter((word) => word.kind === 'path' && word.text === 'scripts/x.py' && !word.tree)
      .map((word) => (word.kind === 'path' ? word.runner : '')),
    ['python3'],
  );
});
