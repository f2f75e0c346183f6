// Program text on the command line (program-text.ts): every sed, awk and jq
// construct the parsers allow or refuse, decided by hand. A few cases go
// through the whole gate to show the denial reaches the command.
import test, { type ExecutionContext } from 'ava';
import { findAwkDenial } from '../../../src/policy/argument-rules/program-text/awk.js';
import { findJqDenial } from '../../../src/policy/argument-rules/program-text/jq.js';
import { findSedDenial } from '../../../src/policy/argument-rules/program-text/sed.js';
import { checkCases } from './gate-cases.js';

type Expect = 'allow' | 'deny';

/** Decides every text and fails once, listing each mismatch with the parser's reason. */
function checkTexts(t: ExecutionContext, find: (text: string) => string | undefined, cases: readonly (readonly [string, Expect])[]): void {
  const mismatches: string[] = [];
  for (const [text, expect] of cases) {
    const denial = find(text);
    const actual: Expect = denial === undefined ? 'allow' : 'deny';
    if (actual !== expect) mismatches.push(`${JSON.stringify(text)}: expected ${expect}, got ${actual}${denial === undefined ? '' : ` (${denial})`}`);
  }
  t.deepEqual(mismatches, []);
}

const SED_ALLOWED: readonly string[] = [
  'p', '1p', '$p', '/re/p', '\\,re,p', '\\|a/b|p', '/re/I p', '/re/Mp', '1~2p', '0~3d', '0,/re/p', '1,+2p', '1,~4p', '2,$p', '/a/,/b/p', '1!p', '1! p', '$!N',
  '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'l', 'l 5', 'P', 'x', 'z', 'q', 'q5', 'Q', 'Q 3',
  'b', 'bend', 't', 'tx', 'T', 'Tx', ':a', ':a;N;$!ba;s/\\n/ /g', '{p}', '/x/{s/a/b/;p}', '1{p;}', '/x/ { p ; d }',
  'a text', 'i text', 'c text', 'a\\text', '$a\\', 'a\\', '1i\\  indented',
  'a foo; w /tmp/x', // the rest of the line is the text to append, never a command
  's/a/b/', 's|a|b|', 's,a/b,c,', 's/a/b/g', 's/a/b/p', 's/a/b/i', 's/a/b/I', 's/a/b/m', 's/a/b/M', 's/a/b/2', 's/a/b/gI2p', 's/a/b/ g',
  's/[0-9]/N/g', 's/[^a-z]*//', 's/[]x]/y/', 's/[^]x]/y/', 's/[[:digit:]]\\+/N/', 's/[[.-.]]/N/', 's/[[=e=]]/N/', 's/a\\/b/c/', 's/x/a\\/b/', 's/\\(a\\)/\\1&\\U\\n/',
  's|[/]|x|', 's/[\\]/X/;#]/Y/w /tmp/pwn', // GNU sed ends [\] at its first ], so the rest is a comment
  'y/abc/xyz/', 'y,a/b,x-y,', '# comment\np', '#n', 'p # comment', '1d;2d', 's/a/b/ ; p', 'p;', ';;p', 'p\n\np', '',
];

const SED_DENIED: readonly string[] = [
  'e', '1e id', 'e id', 's/a/b/e', 's/a/b/ew f', 's/a/b/w f', 's/a/b/gw /tmp/x', 'w f', '1w f', 'W f', 'r f', '$r /etc/passwd', 'R f', 'F', 'v', 'v 4.2', 'L',
  's/[/]/x/', 's/[^/]*//', '/[/]/p', '\\,[,],p', 's/[[:alpha:]/]/x/', 's^[^a]^x^', // the delimiter inside a bracket expression
  '0p', '0,5p', '+1p', '~2p', '1,p', '1!!p', 'pw', 'dp', 'k', '{p', 'p}', '1}', 's/a/b', 's/a', 's/[a-/b/', 'y/a/b', 'y/ab/x',
  's/a/b/gg', 's/a/b/pp', 's/a/b/1 2', 's/a/b/0', 's/a/b/x', 's\\a\\b\\', 's\na\nb\n', 'sé/aébé', 'q 1 2', '1,3q', '1,2Q', ':', '1:a', '/x/#c', 'a',
  '1', '/x/', 's/a/b/\r', 'p\u0000',
];

const AWK_ALLOWED: readonly string[] = [
  '{print $1}', '{ print }', 'BEGIN { x = 1; y = x / 2 }', 'NR > 1', '$1 ~ /re/', '$1 !~ /re/', '!/re/', '/a/,/b/', '/a/ && /b/ || /c/',
  '{ print ($1 > 2) }', '{ printf("%d\\n", ($1 > 2)) }', '{ print $1, $2 }', '{ print $1,\n $2 }', 'BEGIN { printf "%s\\n", "a" }',
  'function f(a, b) { return a + b } { print f($1, $2) }', 'func g(x) { return x * 2 }', '{ n[$1]++ } END { for (k in n) print k, n[k] }',
  'length($0) / 2', '{ x = (a) / 2 }', '{ x = a[1] / 2 }', '{ x = i++ / 2 }', '{ x = NR/2 }', 'BEGIN { x /= 2 }', '{ x = "a" / 1 }',
  '{ s = s "x" }', 'BEGIN { x = 1e5; y = .5; z = 2.5e-3; w = 10 }', '/[[:alpha:]]+/', '/[^a-z]/', '/[a-z0-9_]+/', '/a\\/b/', '/a[.]b/',
  '{ print "a" } # comment with system() and > "f"', 'BEGIN { if (x) print "y"; else print "z" }', 'BEGIN { while (i < 3) i++ }',
  '{ x = -$1 }', 'BEGIN { a = b ? c : d }', '{ $1 = ""; print }', 'BEGIN { exit 1 }', 'NR==1,NR==3 { next }',
  'BEGIN { x ^= 2; y **= 2; z %= 3; w *= 2; v -= 1; u += 1 }', '{ sub(/a/, "b"); gsub(/x/, "y", $2) }', '{ split($0, a, /,/); print a[1] }',
  '{ print length }', 'BEGIN {\n print "a"\n x = 1 > 0\n}', 'BEGIN { print "a" }\n$1 > 0 { print }', '{ print }; $1 > 0',
  '{ x = "a > b | c" }', '{ x = "say \\"hi\\"" }', '{ print "é" }', '/é/', 'BEGIN { x = 1 }\\\n{ print }', 'NF { print $NF }',
  '{ if ($1 > max) max = $1 } END { print max }', 'BEGIN { for (i = 0; i < 3; i++) print i }', '{ delete a[$1] }', '{ print substr($0, 2, 3) }',
  'BEGIN { do x++; while (x < 3) }', 'BEGIN { print (1 > 0) ? "a" : "b" }',
];

const AWK_DENIED: readonly string[] = [
  'BEGIN{system("id")}', 'BEGIN { system ("id") }', '{ getline line < "f" }', 'BEGIN { getline }', '{ close("f") }', 'BEGIN { fflush() }',
  '{ print ENVIRON["HOME"] }', 'BEGIN { PROCINFO["sorted_in"] = "x" }', 'BEGIN { print SYMTAB["x"] }', 'BEGIN { print FUNCTAB["f"] }',
  'BEGIN { ARGV[1] = "/etc/passwd"; ARGC = 2 }', 'BEGIN { print ARGC }', 'BEGIN { bindtextdomain("/tmp") }', 'BEGIN { dcgettext("x") }', 'BEGIN { dcngettext("a", "b", 1) }',
  '{ "date" | getline d }', '{ print | "sh" }', '{ print |& "sh" }', '{ x = a & b }', '{ print $1 > "out" }', '{ print $1 >> "out" }', '{ print > "/dev/stderr" }',
  '{ printf("%s\\n", $1) > "f" }', '{ printf "%s", $1 >> "f" }', '{ print a,\n b > "f" }', '{ print (a) > "f" }', 'BEGIN { print 1 > 0 ? "a" : "b" }',
  'BEGIN { if (x) print "y" > "f" }', '{ for (k in a) print k > "out" }', '{ print a[x > 1] }',
  '@load "filefuncs"', '@include "x.awk"', 'BEGIN { f = "system"; @f("id") }', 'BEGIN { awk::system("id") }', 'BEGIN { x = a ::b }',
  'length / 2', '{ if (x) /re/ }', '{ x = $/re/ }', '/[/]/', '/[\\]]/', '/[]a]/', '/[^]a]/', '/[[.a.]]/', '/[a',
  '{ x = "unterminated }', '{ x = "a\\\nb" }', '/re', '{print 1system("id")}', '{ x = 0x1F }', '{ x = 1.2.3 }', '{ x = . }',
  '{ x = a \\ b }', "{ print $1 }'", '{ x = é }', '{ print \u0007 }', '{ x = (a }', '{ x = a) }', '{ x = "ā\\"; system(\\"id\\") }', '{ x = `id` }',
];

const JQ_ALLOWED: readonly string[] = [
  '.', '.a.b', '.[0]', '.[1:2]', '.[] | select(.x > 1)', '.a // "d"', 'map(.+1)', '{a: .b}', '{"import": 1}', '.import', '."include"', '$import',
  '$ENV.HOME', 'env.PATH', 'input_filename', '$__loc__', '@csv', '@base64 "x\\(.a)"', '"\\(.a) and \\(.b | tostring)"', '"nested \\("in \\(1 + (2)) side")"',
  'def f: 1; f', 'def g($x): $x * 2; g(3)', 'reduce .[] as $x (0; . + $x)', '.a |= . + 1', '.a += 1', '.. | numbers', 'try error("x") catch .',
  'label $out | foreach .[] as $i (0; .+$i; if . > 3 then ., break $out else . end)', '.a? // empty', '.[] as [$a, $b] ?// $a | $a', '# comment\n.',
  '-1', '.5', '1e3', '1.5E-2', 'limit(3; .[])', 'if . then 1 elif . == 2 then 2 else 3 end', '.a,.b', '.a != .b and .c <= .d or (.e >= .f) and .g < .h',
  '.x -= 1 | .y *= 2 | .z /= 3 | .w %= 2 | .v //= 0 | .u = 1', '"a" * 2 / 1 % 1', '"é"', 'inputs', '$__prog_name', 'getpath(["a"])', 'splits("a")',
];

const JQ_DENIED: readonly string[] = [
  'import "a" as a; .', 'import "data" as $d; $d', 'include "x"; .', '"x" | modulemeta', '{import: 1}', '"\\(import)"', '"\\(modulemeta)"', 'a::b',
  '# comment\\\n.', '"unterminated', '"\\(.a"', '"ends in \\', ')', '.a)', '$', '$ x', '@', '@ csv', '`id`', 'é', '.a ! .b', '.a\u0001',
];

test('sed scripts: the allowed subset passes', (t) => {
  checkTexts(t, findSedDenial, SED_ALLOWED.map((s) => [s, 'allow'] as const));
});

test('sed scripts: commands and flags that run programs or open files, and text sed would read differently, are refused', (t) => {
  checkTexts(t, findSedDenial, SED_DENIED.map((s) => [s, 'deny'] as const));
});

test('awk programs: computing and printing to standard output passes', (t) => {
  checkTexts(t, findAwkDenial, AWK_ALLOWED.map((s) => [s, 'allow'] as const));
});

test('awk programs: commands, files, the environment, redirection and text awks read differently are refused', (t) => {
  checkTexts(t, findAwkDenial, AWK_DENIED.map((s) => [s, 'deny'] as const));
});

test('jq filters: data processing passes', (t) => {
  checkTexts(t, findJqDenial, JQ_ALLOWED.map((s) => [s, 'allow'] as const));
});

test('jq filters: loading modules and files is refused', (t) => {
  checkTexts(t, findJqDenial, JQ_DENIED.map((s) => [s, 'deny'] as const));
});

test('program text is checked where the gate sees it: positionals and option values', (t) => {
  checkCases(t, [
    { command: "sed -n '/x/,$p' a.txt", expect: 'allow' },
    { command: "sed -n '1w out' a.txt", expect: 'ZB_POLICY_SHELL_ARGUMENT' },
    { command: "sed -e p -e '$r /etc/passwd' a.txt", expect: 'ZB_POLICY_SHELL_ARGUMENT' },
    { command: "awk 'NR > 1 { print $2 }' a.txt", expect: 'allow' },
    { command: "awk '{ print | \"sh\" }' a.txt", expect: 'ZB_POLICY_SHELL_ARGUMENT' },
    { command: "jq '.[] | .name' a.txt", expect: 'allow' },
    { command: "jq 'include \"x\"; .' a.txt", expect: 'ZB_POLICY_SHELL_ARGUMENT' },
  ]);
});
