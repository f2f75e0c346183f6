// Hand-written decisions for the text and search tools and the archive tools
// (table-text.ts, table-archive.ts). The grep cases hold for egrep and fgrep, the
// awk cases for every awk: one list, run under each name.
import test from 'ava';
import path from 'node:path';
import { checkProgramArguments } from '../../../src/policy/argument-rules/check-arguments.js';
import { compileScopes } from '../../../src/policy/scopes.js';
import { gateWorld } from '../../fixtures/gate-world.js';
import { checkCases, type GateCase } from './gate-cases.js';

const OUTSIDE = 'ZB_POLICY_PATH_OUTSIDE_SCOPE';
const ARGUMENT = 'ZB_POLICY_SHELL_ARGUMENT';
const PROTECTED = 'ZB_POLICY_PATH_PROTECTED';
const HARDLINK = 'ZB_POLICY_PATH_HARDLINK';

/** Written for grep; run as grep, egrep and fgrep. */
const GREP_FAMILY_CASES: readonly GateCase[] = [
  { command: 'grep foo a.txt', expect: 'allow' },
  { command: 'grep foo', expect: 'allow', why: 'standard input' },
  { command: 'grep foo $S/secret.txt', expect: OUTSIDE },
  { command: 'grep $S/secret.txt a.txt', expect: 'allow', why: 'the first argument is the pattern' },
  { command: 'grep', expect: ARGUMENT, why: 'no pattern' },
  { command: 'grep --help', expect: 'allow' },
  { command: 'grep --version', expect: 'allow' },
  { command: 'grep -V', expect: 'allow' },
  { command: 'grep --help a.txt', expect: ARGUMENT },
  { command: 'grep -EiwxsvbnHhoqaIlLcZ foo a.txt', expect: 'allow' },
  { command: 'grep -FGPz foo a.txt', expect: 'allow' },
  { command: 'grep --extended-regexp --fixed-strings --basic-regexp --perl-regexp --ignore-case --word-regexp --line-regexp --null-data foo a.txt', expect: 'allow' },
  { command: 'grep --no-messages --invert-match --byte-offset --line-number --with-filename --no-filename --only-matching --quiet --silent --text foo a.txt', expect: 'allow' },
  { command: 'grep --files-with-matches --files-without-match --count --null --binary-files=without-match --color --colour=never foo a.txt', expect: 'allow' },
  { command: 'grep --color=sometimes foo a.txt', expect: ARGUMENT },
  { command: 'grep --binary-files=maybe foo a.txt', expect: ARGUMENT },
  { command: 'grep -m 3 -A 1 -B2 -C 3 -5 foo a.txt', expect: 'allow' },
  { command: 'grep --max-count=3 --after-context=1 --before-context 2 --context=3 foo a.txt', expect: 'allow' },
  { command: 'grep -m many foo a.txt', expect: ARGUMENT },
  { command: 'grep -A x foo a.txt', expect: ARGUMENT },
  { command: 'grep -B x foo a.txt', expect: ARGUMENT },
  { command: 'grep -C x foo a.txt', expect: ARGUMENT },
  { command: 'grep --colour=sometimes foo a.txt', expect: ARGUMENT },
  { command: 'grep -e foo -e bar a.txt', expect: 'allow' },
  { command: 'grep --regexp=foo', expect: 'allow' },
  { command: 'grep -e foo $S/secret.txt', expect: OUTSIDE, why: 'with -e every argument is a file' },
  { command: 'grep -f pats.txt a.txt', expect: 'allow' },
  { command: 'grep -f pats.txt $S/secret.txt', expect: OUTSIDE, why: 'with -f every argument is a file' },
  { command: 'grep -f $S/secret.txt a.txt', expect: OUTSIDE, why: 'the pattern file is read' },
  { command: 'grep --file=$S/secret.txt a.txt', expect: OUTSIDE },
  { command: 'grep -r foo src', expect: 'allow' },
  { command: 'grep -r foo box', expect: 'allow', why: '-r does not follow the link inside box' },
  { command: 'grep --recursive foo $S', expect: OUTSIDE },
  { command: 'grep -r foo', expect: 'allow', why: 'the working directory' },
  { command: 'grep -r', expect: ARGUMENT, why: 'no pattern' },
  { command: 'grep -r $S src', expect: 'allow', why: 'the first argument is the pattern' },
  { command: 'grep -r -e foo', expect: 'allow' },
  { command: 'grep -R foo src', expect: 'allow' },
  { command: 'grep -R foo box', expect: OUTSIDE, why: 'box/L2 leads to the secret' },
  { command: 'grep --dereference-recursive foo links', expect: OUTSIDE },
  { command: 'grep -R foo', expect: OUTSIDE, why: 'the working directory holds links to the secret' },
  { command: 'grep -R', expect: ARGUMENT, why: 'no pattern' },
  { command: 'grep -R $S src', expect: 'allow', why: 'the first argument is the pattern' },
  { command: 'grep -R -e foo', expect: OUTSIDE },
  { command: "grep -r --include='*.ts' --exclude='*.md' --exclude-dir=node_modules foo .", expect: 'allow' },
  { command: 'grep --exclude-from=pats.txt foo a.txt', expect: 'allow' },
  { command: 'grep --exclude-from=$S/secret.txt foo a.txt', expect: OUTSIDE },
  { command: 'grep --rec foo .', expect: ARGUMENT, why: 'abbreviation' },
  { command: 'grep -d recurse foo', expect: ARGUMENT },
  { command: 'grep --devices=read foo a.txt', expect: ARGUMENT },
];

const RG_CASES: readonly GateCase[] = [
  { command: 'rg foo', expect: 'allow', why: 'searches the working directory, without following links' },
  { command: 'rg foo src a.txt', expect: 'allow' },
  { command: 'rg foo $S', expect: OUTSIDE },
  { command: 'rg', expect: ARGUMENT },
  { command: 'rg -L foo', expect: OUTSIDE, why: 'follows the links in the working directory' },
  { command: 'rg --follow foo src', expect: 'allow' },
  { command: 'rg --follow foo box', expect: OUTSIDE },
  { command: 'rg -e foo -e bar', expect: 'allow' },
  { command: 'rg --regexp=foo $S', expect: OUTSIDE },
  { command: 'rg -L -e foo', expect: OUTSIDE },
  { command: 'rg -f pats.txt', expect: 'allow' },
  { command: 'rg --file=$S/secret.txt src', expect: OUTSIDE },
  { command: 'rg --files', expect: 'allow' },
  { command: 'rg --files $S', expect: OUTSIDE },
  { command: 'rg --files -L', expect: OUTSIDE },
  { command: 'rg -isSFwxvUPclnNoqHIa0 foo src', expect: 'allow' },
  { command: 'rg --ignore-case --case-sensitive --smart-case --fixed-strings --word-regexp --line-regexp --invert-match --multiline --pcre2 foo src', expect: 'allow' },
  { command: 'rg --count --count-matches --files-with-matches --files-without-match --line-number --no-line-number --only-matching --quiet --with-filename --no-filename foo src', expect: 'allow' },
  { command: 'rg --heading --no-heading --column --json --vimgrep --stats --text --null --hidden --no-ignore -uu --unrestricted --no-config foo src', expect: 'allow' },
  { command: "rg -m 1 -A 1 -B 1 -C 2 -d 3 -M 200 -r X -g '*.ts' --iglob '*.TS' -t ts -T md foo src", expect: 'allow' },
  { command: "rg --max-count=1 --after-context=1 --before-context=1 --context=2 --max-depth=3 --max-columns=200 --replace=X --glob='*.ts' --type=ts --type-not=md --sort=path --color=never foo src", expect: 'allow' },
  { command: 'rg --max-depth=deep foo', expect: ARGUMENT },
  { command: 'rg -m x foo', expect: ARGUMENT },
  { command: 'rg -A x foo', expect: ARGUMENT },
  { command: 'rg -B x foo', expect: ARGUMENT },
  { command: 'rg -C x foo', expect: ARGUMENT },
  { command: 'rg -M x foo', expect: ARGUMENT },
  { command: "rg -T 'md;rm' foo", expect: ARGUMENT },
  { command: "rg -t 'ts;rm' foo", expect: ARGUMENT },
  { command: 'rg --sort=size foo', expect: ARGUMENT },
  { command: 'rg --color=rainbow foo', expect: ARGUMENT },
  { command: 'rg --ignore-file=pats.txt foo', expect: 'allow' },
  { command: 'rg --ignore-file $S/secret.txt foo', expect: OUTSIDE },
  { command: 'rg --pre cat foo', expect: ARGUMENT, why: 'runs a preprocessor' },
  { command: "rg --pre-glob '*' foo", expect: ARGUMENT },
  { command: 'rg -z foo', expect: ARGUMENT },
  { command: 'rg --search-zip foo', expect: ARGUMENT },
  { command: 'rg --hostname-bin x foo', expect: ARGUMENT },
  { command: 'rg -h', expect: 'allow' },
  { command: 'rg --help', expect: 'allow' },
  { command: 'rg -V', expect: 'allow' },
  { command: 'rg --version', expect: 'allow' },
  { command: 'rg --type-list', expect: 'allow' },
];

const SED_CASES: readonly GateCase[] = [
  { command: 'sed -n 1p a.txt', expect: 'allow' },
  { command: 'sed 1p -n a.txt', expect: 'allow', why: 'GNU sed permutes' },
  { command: 'sed -n 1p $S/secret.txt', expect: OUTSIDE },
  { command: "sed 's/a/b/w out' a.txt", expect: ARGUMENT },
  { command: 'sed', expect: ARGUMENT },
  { command: 'sed --help', expect: 'allow' },
  { command: 'sed --version', expect: 'allow' },
  { command: "sed -e 's/a/b/' -e 1d a.txt", expect: 'allow' },
  { command: 'sed --expression=1d', expect: 'allow' },
  { command: 'sed -e 1d $S/secret.txt', expect: OUTSIDE },
  { command: "sed -e '1e id' a.txt", expect: ARGUMENT },
  { command: 'sed -e 1d $R/r.txt', expect: 'allow', why: 'read without -i' },
  { command: "sed -i 's/a/b/' a.txt", expect: 'allow' },
  { command: "sed --in-place 's/a/b/' a.txt notes.md", expect: 'allow' },
  { command: "sed -i 's/a/b/' $R/r.txt", expect: OUTSIDE, why: '-i writes the file' },
  { command: "sed -i -e 's/a/b/' $R/r.txt", expect: OUTSIDE },
  { command: 'sed -i -e p', expect: ARGUMENT, why: 'no file to edit' },
  { command: "sed -i '1e id' a.txt", expect: ARGUMENT, why: 'the script is still checked with -i' },
  { command: "sed -i 's/a/b/' .git/config", expect: PROTECTED },
  { command: "sed -i 's/a/b/' b.txt", expect: HARDLINK, why: 'b.txt has a second name' },
  { command: "sed -i 's/a/b/'", expect: ARGUMENT, why: 'no file to edit' },
  { command: "sed -i.bak 's/a/b/' a.txt", expect: ARGUMENT, why: 'a backup suffix may name a file elsewhere' },
  { command: "sed -in 's/a/b/' a.txt", expect: ARGUMENT, why: 'sed reads n as the suffix' },
  { command: "sed --in-place=.bak 's/a/b/' a.txt", expect: ARGUMENT },
  { command: 'sed -nEszu 1p a.txt', expect: 'allow' },
  { command: 'sed -r -l 40 l a.txt', expect: 'allow' },
  { command: 'sed --quiet --silent --regexp-extended --separate --null-data --unbuffered --line-length=40 --posix --sandbox --debug 1p a.txt', expect: 'allow' },
  { command: 'sed -l wide 1p a.txt', expect: ARGUMENT },
  { command: 'sed -f script.sed a.txt', expect: ARGUMENT, why: 'a script file is not read by the check' },
  { command: 'sed --file=script.sed a.txt', expect: ARGUMENT },
  { command: 'sed --follow-symlinks -i 1d a.txt', expect: ARGUMENT },
];

/** Written for awk; run as awk, mawk, nawk and gawk. */
const AWK_FAMILY_CASES: readonly GateCase[] = [
  { command: "awk '{print $1}' a.txt", expect: 'allow' },
  { command: "awk '{print $1}' $S/secret.txt", expect: OUTSIDE },
  { command: "awk -F , 'BEGIN{system(\"id\")}'", expect: ARGUMENT, why: 'the issue: runs a command' },
  { command: "awk -F: '{print $1}' a.txt", expect: 'allow' },
  { command: "awk -v n=1 '{print n}' a.txt", expect: 'allow' },
  { command: "awk -v 1n=1 '{print}' a.txt", expect: ARGUMENT },
  { command: "awk '{print n}' n=1 a.txt", expect: 'allow' },
  { command: "awk '{print}' x=$S/secret.txt", expect: 'allow', why: 'an assignment, not a file' },
  { command: "awk -- '{print}' a.txt", expect: 'allow' },
  { command: "awk '{print}' -v", expect: 'allow', why: 'after the program every argument is an operand: a file named -v' },
  { command: 'awk -f p.awk a.txt', expect: ARGUMENT, why: 'a program file is not read by the check' },
  { command: 'awk -W exec p.awk', expect: ARGUMENT, why: 'the issue: mawk runs the file as the program' },
  { command: 'awk -Wversion', expect: ARGUMENT },
  { command: 'awk', expect: ARGUMENT },
];

const GAWK_CASES: readonly GateCase[] = [
  { command: "gawk --field-separator=, --assign=x=1 '{print x}' a.txt", expect: 'allow' },
  { command: "gawk --assign=1x=1 '{print}' a.txt", expect: ARGUMENT },
  { command: "gawk -bcPS '{print}' a.txt", expect: 'allow' },
  { command: "gawk --characters-as-bytes --traditional --posix --sandbox '{print}' a.txt", expect: 'allow' },
  { command: 'gawk --version', expect: 'allow' },
  { command: 'gawk -V', expect: 'allow' },
  { command: 'gawk --help', expect: 'allow' },
  { command: 'gawk -h', expect: 'allow' },
  { command: 'gawk -E p.awk a.txt', expect: ARGUMENT },
  { command: "gawk -l filefuncs '{print}'", expect: ARGUMENT },
  { command: "gawk -i inplace '{print}' a.txt", expect: ARGUMENT },
  { command: "gawk -o out.txt '{print}' a.txt", expect: ARGUMENT },
  { command: "gawk --profile=out '{print}' a.txt", expect: ARGUMENT },
  { command: "gawk --dump-variables=out '{print}' a.txt", expect: ARGUMENT },
  { command: "gawk --debug '{print}' a.txt", expect: ARGUMENT },
  { command: "gawk -e '{print}' a.txt", expect: ARGUMENT },
  { command: "gawk -W exec=p.awk '{print}'", expect: ARGUMENT },
];

const JQ_CASES: readonly GateCase[] = [
  { command: 'jq . a.txt', expect: 'allow' },
  { command: 'jq .', expect: 'allow' },
  { command: 'jq . $S/secret.txt', expect: OUTSIDE },
  { command: "jq 'import \"a\" as a; .' a.txt", expect: ARGUMENT },
  { command: 'jq -rjcnRseSCMa . a.txt', expect: 'allow' },
  { command: 'jq --raw-output --join-output --compact-output --null-input --raw-input --slurp --exit-status --sort-keys --color-output --monochrome-output --ascii-output --tab --indent 2 --seq --stream . a.txt', expect: 'allow' },
  { command: 'jq --indent wide . a.txt', expect: ARGUMENT },
  { command: "jq --arg name value '.x = $name' a.txt", expect: 'allow' },
  { command: "jq --argjson n 1 '$n' a.txt", expect: 'allow' },
  { command: "jq --slurpfile d a.txt '$d' b.txt", expect: 'allow' },
  { command: 'jq --slurpfile d $S/secret.txt . a.txt', expect: OUTSIDE },
  { command: "jq -n --rawfile t a.txt '$t'", expect: 'allow' },
  { command: 'jq -n --rawfile t $S/secret.txt .', expect: OUTSIDE },
  { command: 'jq --arg=x y .', expect: ARGUMENT },
  { command: 'jq --arg x', expect: ARGUMENT, why: 'two values needed' },
  { command: 'jq -f filter.jq a.txt', expect: ARGUMENT },
  { command: 'jq --from-file filter.jq a.txt', expect: ARGUMENT },
  { command: "jq -L $S 'import \"x\" as x; .'", expect: ARGUMENT },
  { command: 'jq --args . a b', expect: ARGUMENT },
  { command: 'jq -h', expect: 'allow' },
  { command: 'jq --help', expect: 'allow' },
  { command: 'jq --version', expect: 'allow' },
];

const SORT_CASES: readonly GateCase[] = [
  { command: 'sort a.txt b.txt', expect: 'allow' },
  { command: 'sort $S/secret.txt', expect: OUTSIDE },
  { command: 'sort -o out.txt a.txt', expect: 'allow' },
  { command: 'sort -o $R/out.txt a.txt', expect: OUTSIDE, why: '-o is written' },
  { command: 'sort --output=.git/x a.txt', expect: PROTECTED },
  { command: 'sort -bdfgiMhnRrV a.txt', expect: 'allow' },
  { command: 'sort --ignore-leading-blanks --dictionary-order --ignore-case --general-numeric-sort --ignore-nonprinting --month-sort --human-numeric-sort --numeric-sort --random-sort --reverse --version-sort a.txt', expect: 'allow' },
  { command: 'sort -c a.txt', expect: 'allow' },
  { command: 'sort -C a.txt', expect: 'allow' },
  { command: 'sort --check a.txt', expect: 'allow' },
  { command: 'sort --check=quiet a.txt', expect: 'allow' },
  { command: 'sort --check=loud a.txt', expect: ARGUMENT },
  { command: 'sort -k 2,2n -t , -u -s -m -z -S 10M a.txt', expect: 'allow' },
  { command: 'sort --key=2 --field-separator=, --unique --stable --merge --zero-terminated --buffer-size=1M --parallel=2 --debug --sort=version a.txt', expect: 'allow' },
  { command: 'sort -k second a.txt', expect: ARGUMENT },
  { command: 'sort --sort=alphabetic a.txt', expect: ARGUMENT },
  { command: 'sort -S lots a.txt', expect: ARGUMENT },
  { command: 'sort --parallel=many a.txt', expect: ARGUMENT },
  { command: 'sort --random-source=a.txt -R b.txt', expect: 'allow' },
  { command: 'sort --random-source=$S/secret.txt a.txt', expect: OUTSIDE },
  { command: 'sort -T /tmp a.txt', expect: ARGUMENT },
  { command: 'sort --compress-program=gzip a.txt', expect: ARGUMENT },
  { command: 'sort --files0-from=pats.txt', expect: ARGUMENT, why: 'the names in the file would not be checked' },
  { command: 'sort --help', expect: 'allow' },
  { command: 'sort --version', expect: 'allow' },
];

const XXD_CASES: readonly GateCase[] = [
  { command: 'xxd a.txt', expect: 'allow' },
  { command: 'xxd', expect: 'allow', why: 'standard input' },
  { command: 'xxd $S/secret.txt', expect: OUTSIDE },
  { command: 'xxd a.txt out.bin', expect: ARGUMENT, why: 'the second file is written' },
  { command: 'xxd -r x.hex out.bin', expect: ARGUMENT },
  { command: 'xxd a.txt -r', expect: ARGUMENT, why: 'xxd reads options only before the file' },
  { command: 'xxd a.txt -u', expect: ARGUMENT, why: 'after the file, -u is the name of the file xxd writes' },
  { command: 'xxd -a -b -C -d -E -e -h -i -p -u -v a.txt', expect: 'allow' },
  { command: 'xxd -ps a.txt', expect: 'allow' },
  { command: 'xxd -c 8 -g 2 -l 0x20 -o -4 -s +8 -n data -i a.txt', expect: 'allow' },
  { command: 'xxd -c wide a.txt', expect: ARGUMENT },
  { command: 'xxd -g x a.txt', expect: ARGUMENT },
  { command: 'xxd -l 1k a.txt', expect: ARGUMENT },
  { command: 'xxd -s end a.txt', expect: ARGUMENT },
  { command: 'xxd -o end a.txt', expect: ARGUMENT },
  { command: "xxd -n '1 x' -i a.txt", expect: ARGUMENT },
];

const TAR_CASES: readonly GateCase[] = [
  { command: 'tar cf x.tar a.txt', expect: 'allow' },
  { command: 'tar czf out.tgz src', expect: 'allow' },
  { command: 'tar tvf x.tar', expect: 'allow' },
  { command: 'tar cPf /tmp/out.tar a.txt', expect: ARGUMENT, why: '-P keeps absolute names' },
  { command: 'tar xPf evil.tar', expect: ARGUMENT, why: 'extraction' },
  { command: "tar cIf 'sh -c \"id\"' x.tar a.txt", expect: ARGUMENT, why: '-I runs a program' },
  { command: 'tar xf x.tar', expect: ARGUMENT },
  { command: 'tar --extract -f x.tar', expect: ARGUMENT },
  { command: 'tar -cf x.tar -C $S secret.txt', expect: ARGUMENT },
  { command: 'tar -cf x.tar --to-command=sh a.txt', expect: ARGUMENT },
  { command: 'tar --checkpoint-action=exec=id -cf x.tar a.txt', expect: ARGUMENT },
  { command: 'tar -cf x.tar -T pats.txt', expect: ARGUMENT },
  { command: 'tar -cf x.tar --remove-files a.txt', expect: ARGUMENT },
  { command: 'tar cf $R/x.tar a.txt', expect: OUTSIDE, why: 'creating writes the archive' },
  { command: 'tar tf $R/x.tar', expect: 'allow', why: 'listing reads it' },
  { command: 'tar tf $S/x.tar', expect: OUTSIDE },
  { command: 'tar cf .git/x.tar a.txt', expect: PROTECTED },
  { command: 'tar cf x.tar $S/secret.txt', expect: OUTSIDE },
  { command: 'tar tf x.tar $S/secret.txt', expect: 'allow', why: 'a member name to list, not a file' },
  { command: 'tar cf host:x.tar a.txt', expect: ARGUMENT, why: 'a remote archive' },
  { command: 'tar tf host:/x.tar', expect: ARGUMENT },
  { command: 'tar cf x.tar box', expect: 'allow' },
  { command: 'tar chf x.tar box', expect: OUTSIDE, why: '-h follows box/L2' },
  { command: 'tar --create --dereference --file=x.tar box', expect: OUTSIDE },
  { command: 'tar -cvzf out.tgz src', expect: 'allow' },
  { command: 'tar -cjf out.tbz -J -a src', expect: 'allow' },
  { command: 'tar --create --verbose --gzip --bzip2 --xz --zstd --auto-compress --file=x.tar src', expect: 'allow' },
  { command: 'tar --list --file=x.tar', expect: 'allow' },
  { command: "tar --exclude='*.o' --exclude-vcs -cf x.tar src", expect: 'allow' },
  { command: 'tar -X pats.txt -cf x.tar src', expect: 'allow' },
  { command: 'tar --exclude-from=$S/secret.txt -cf x.tar src', expect: OUTSIDE },
  { command: 'tar -f x.tar a.txt', expect: ARGUMENT, why: 'neither c nor t' },
  { command: 'tar --cre -f x.tar a.txt', expect: ARGUMENT, why: 'abbreviation' },
  { command: 'tar --help', expect: 'allow' },
  { command: 'tar --version', expect: 'allow' },
];

const ZIP_CASES: readonly GateCase[] = [
  { command: 'zip -r out.zip src', expect: 'allow' },
  { command: 'zip out.zip a.txt b.txt', expect: 'allow' },
  { command: 'zip -r out.zip box', expect: OUTSIDE, why: 'zip stores what box/L2 points to' },
  { command: 'zip -ry out.zip box', expect: OUTSIDE, why: 'checked even with -y' },
  { command: 'zip out.zip $S/secret.txt', expect: OUTSIDE },
  { command: 'zip $R/out.zip a.txt', expect: OUTSIDE, why: 'the archive is written' },
  { command: 'zip', expect: ARGUMENT },
  { command: 'zip -qvjyu -9 out.zip a.txt', expect: 'allow' },
  { command: 'zip --recurse-paths --quiet --verbose --junk-paths --symlinks --update out.zip src', expect: 'allow' },
  { command: 'zip -T out.zip a.txt', expect: ARGUMENT, why: 'tests with unzip, or the -TT program' },
  { command: "zip -TT 'sh -c id' out.zip a.txt", expect: ARGUMENT },
  { command: 'zip --test out.zip a.txt', expect: ARGUMENT },
  { command: 'zip --unzip-command=sh out.zip a.txt', expect: ARGUMENT },
  { command: "zip -r out.zip src -x '*.o'", expect: ARGUMENT, why: '-x takes a list of arguments' },
  { command: 'zip -m out.zip a.txt', expect: ARGUMENT, why: 'deletes the originals' },
];

const UNZIP_CASES: readonly GateCase[] = [
  { command: 'unzip -l x.zip', expect: 'allow' },
  { command: 'unzip -t x.zip', expect: 'allow' },
  { command: 'unzip -v x.zip', expect: 'allow' },
  { command: 'unzip -lq x.zip', expect: 'allow' },
  { command: 'unzip -l $S/x.zip', expect: OUTSIDE },
  { command: 'unzip -l x.zip $S/secret.txt', expect: 'allow', why: 'a member name, not a file' },
  { command: 'unzip -l x.zip -d out', expect: 'allow', why: 'listing ignores -d' },
  { command: 'unzip -l', expect: ARGUMENT },
  { command: 'unzip x.zip', expect: ARGUMENT, why: 'extraction' },
  { command: 'unzip -q x.zip', expect: ARGUMENT },
  { command: 'unzip -o x.zip', expect: ARGUMENT },
  { command: 'unzip -d out x.zip', expect: ARGUMENT },
  { command: 'unzip x.zip -l', expect: ARGUMENT, why: 'after the archive, -l is a member name and unzip extracts' },
  { command: 'unzip -l -l- x.zip', expect: ARGUMENT, why: '-l- turns listing off' },
  { command: 'unzip -p x.zip', expect: ARGUMENT },
];

const RSYNC_CASES: readonly GateCase[] = [
  { command: 'rsync -a src/ copy/', expect: 'allow' },
  { command: 'rsync src', expect: 'allow', why: 'lists the source' },
  { command: 'rsync', expect: ARGUMENT },
  { command: 'rsync -a src/ $R/copy', expect: OUTSIDE },
  { command: 'rsync -a $S/ copy', expect: OUTSIDE },
  { command: 'rsync -a src host:/tmp/x', expect: ARGUMENT, why: 'remote destination' },
  { command: 'rsync -a host:/etc/passwd x', expect: ARGUMENT },
  { command: 'rsync -a rsync://h/m x', expect: ARGUMENT },
  { command: "rsync -e 'sh -c id' src x", expect: ARGUMENT },
  { command: 'rsync --rsh=ssh src x', expect: ARGUMENT },
  { command: 'rsync --rsync-path=x src copy', expect: ARGUMENT },
  { command: 'rsync --files-from=pats.txt . copy', expect: ARGUMENT },
  { command: 'rsync --remove-source-files a.txt copy/', expect: ARGUMENT },
  { command: 'rsync -a box copy', expect: 'allow', why: 'links copied as links' },
  { command: 'rsync -aL box copy', expect: OUTSIDE },
  { command: 'rsync --copy-links -r box copy', expect: OUTSIDE },
  { command: 'rsync -a --copy-unsafe-links box copy', expect: OUTSIDE },
  { command: 'rsync -arvqnuctplHhiP src/ copy/', expect: 'allow' },
  { command: 'rsync --archive --recursive --verbose --quiet --dry-run --update --checksum --times --perms --links --safe-links --hard-links --human-readable --itemize-changes --progress --stats --delete --ignore-existing --size-only --mkpath src/ copy/', expect: 'allow' },
  { command: "rsync --exclude='*.o' --include='*.c' --exclude-from=pats.txt --include-from=pats.txt -a src/ copy/", expect: 'allow' },
  { command: 'rsync --exclude-from=$S/secret.txt -a src/ copy/', expect: OUTSIDE },
  { command: 'rsync --include-from=$S/secret.txt -a src/ copy/', expect: OUTSIDE },
];

/** The same cases under another name of the same program. */
function renamed(cases: readonly GateCase[], from: string, to: string): GateCase[] {
  return cases.map((c) => ({ ...c, command: c.command.replace(new RegExp(`^${from} |^${from}$`), (m) => m.replace(from, to)) }));
}

export const TEXT_CASES: readonly GateCase[] = [
  ...['grep', 'egrep', 'fgrep'].flatMap((name) => renamed(GREP_FAMILY_CASES, 'grep', name)),
  ...RG_CASES,
  ...SED_CASES,
  ...['awk', 'mawk', 'nawk', 'gawk'].flatMap((name) => renamed(AWK_FAMILY_CASES, 'awk', name)),
  ...GAWK_CASES,
  ...JQ_CASES,
  ...SORT_CASES,
  ...XXD_CASES,
];

export const ARCHIVE_CASES: readonly GateCase[] = [...TAR_CASES, ...ZIP_CASES, ...UNZIP_CASES, ...RSYNC_CASES];

test('text and search tools decide as written by hand', (t) => {
  checkCases(t, TEXT_CASES);
});

test('archive and copy tools decide as written by hand', (t) => {
  checkCases(t, ARCHIVE_CASES);
});

test('a search with no operand is checked on the working directory, even where cd could not lead', (t) => {
  const world = gateWorld(t);
  // The command runs in W, which this agent may not read: only R is in scope.
  const scopes = compileScopes({ read: [world.R], write: [] }, { workspace: world.W, agentData: path.join(world.root, 'data') });
  const decide = (program: string, ...args: string[]) => {
    const checked = checkProgramArguments(program, args, { scopes, cwd: world.W });
    return checked.ok ? 'allow' : checked.code;
  };
  t.is(decide('grep', 'foo'), 'allow', 'standard input');
  t.is(decide('grep', '-r', 'foo'), OUTSIDE);
  t.is(decide('grep', '-r', '-e', 'foo'), OUTSIDE);
  t.is(decide('grep', '-r', 'foo', world.R), 'allow');
  t.is(decide('rg', 'foo'), OUTSIDE);
  t.is(decide('rg', '--files'), OUTSIDE);
  t.is(decide('rg', '-e', 'foo'), OUTSIDE);
  t.is(decide('rg', 'foo', world.R), 'allow');
  t.is(decide('find', '-name', 'x'), OUTSIDE);
  t.is(decide('find', world.R, '-name', 'x'), 'allow');
});
