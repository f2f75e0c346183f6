// The closed list of what git writes as data, and the grammars of sequencer state
// (issue 21 §2). Expectations are written by hand from what git 2.39 writes
// (init, commit, branch, tag, merge, rebase -i/-r/--apply, am, cherry-pick,
// revert, bisect, stash, gc) and from the escapes of the issue.
import test from 'ava';
import { checkGitData, gitDataRule, isGitDataDirectory, type GitDataRule } from '../../../../src/host/executors/confine/git-data-rules.js';

const OID = 'eff0b087e7de118c6c430e522f05cd940ce16e78';

for (const [relative, rule] of [
  ['HEAD', 'ref'],
  ['ORIG_HEAD', 'oid'],
  ['MERGE_HEAD', 'oids'],
  ['FETCH_HEAD', 'fetch-head'],
  ['BISECT_TERMS', 'bisect-terms'],
  ['BISECT_START', 'bisect-start'],
  ['COMMIT_EDITMSG', 'text'],
  ['index', 'opaque'],
  ['index.lock', 'opaque'],
  ['config', 'config'],
  ['packed-refs', 'packed-refs'],
  [`objects/ef/${OID.slice(2)}`, 'opaque'],
  [`objects/pack/pack-${OID}.idx`, 'opaque'],
  ['objects/info/commit-graph', 'opaque'],
  ['refs/heads/feature/x', 'ref'],
  ['refs/stash', 'ref'],
  ['logs/refs/heads/main', 'opaque'],
  ['hooks/pre-commit.sample', 'opaque'],
  ['info/exclude', 'text'],
  ['rebase-merge/git-rebase-todo', 'todo'],
  ['rebase-merge/strategy', 'strategy'],
  ['rebase-merge/strategy_opts', 'strategy-options'],
  ['rebase-apply/0001', 'opaque'],
  ['rebase-apply/apply-opt', 'empty'],
  ['rebase-apply/rewritten', 'rewritten-list'],
  ['rebase-apply/rerere-autoupdate', 'flag'],
  ['sequencer/opts', 'sequencer-options'],
  // Not data: git runs, obeys or redirects through these.
  ['hooks/pre-commit', undefined],
  ['info/attributes', undefined],
  ['objects/info/alternates', undefined],
  ['commondir', undefined],
  ['config.lock', undefined],
  ['branches/origin', undefined],
  ['worktrees/other/HEAD', 'ref'],
  ['worktrees/other/index', 'opaque'],
  ['worktrees/other/commondir', 'commondir'],
  ['worktrees/other/rebase-merge/strategy', 'strategy'],
  ['worktrees/other/hooks/pre-commit', undefined],
  ['worktrees/other/config', undefined],
  ['modules/sub/config', undefined],
  ['rebase-merge/gpg_sign_opt', undefined],
  ['rebase-merge/exec', undefined],
  ['lfs/objects/x', undefined],
  ['objects/ef/evil', undefined],
  // rerere's records: git replays a recorded resolution into the worktree on the user's merge.
  [`rr-cache/${OID}/preimage`, undefined],
  [`rr-cache/${OID}/postimage`, undefined],
  ['MERGE_RR', undefined],
  [`worktrees/other/rr-cache/${OID}/postimage`, undefined],
] as const) {
  test(`the rule for ${relative} is ${String(rule)}`, (t) => {
    t.is(gitDataRule(relative), rule);
  });
}

for (const [relative, allowed] of [
  ['objects/ab', true],
  ['refs/heads/feature', true],
  ['rebase-merge', true],
  ['worktrees', true],
  ['worktrees/other', false],
  ['worktrees/other/logs', true],
  ['modules', false],
  ['lfs', false],
  ['objects/ab/cd', false],
  ['hooks/sub', false],
  ['rr-cache', false],
] as const) {
  test(`the directory ${relative} is ${allowed ? '' : 'not '}one git makes`, (t) => {
    t.is(isGitDataDirectory(relative), allowed);
  });
}

const accepted: [GitDataRule, string][] = [
  ['ref', 'ref: refs/heads/main\n'],
  ['ref', `${OID}\n`],
  ['oid', `${OID}\n`],
  ['oids', `${OID}\n${OID}\n`],
  ['strategy', 'ort\n'],
  ['strategy', 'subtree'],
  ['strategy-options', " --patience --'theirs'"],
  [
    'todo',
    `pick ${OID} three\nfixup -C ${OID.slice(0, 7)} x\nlabel onto\n\nreset onto\nreset [new root]\nmerge -C ${OID} topic # Merge topic\nupdate-ref refs/heads/topic\nbreak\nnoop\n# exec is in a comment\n`,
  ],
  ['sequencer-options', '[options]\n\trecord-origin = true\n\tmainline = 1\n\tstrategy = ort\n\tstrategy-option = theirs\n'],
  ['author-script', "GIT_AUTHOR_NAME='u'\nGIT_AUTHOR_EMAIL='u@x'\nGIT_AUTHOR_DATE='@1796176706 +0000'\n"],
  ['author-script', "GIT_AUTHOR_NAME='O'\\''Brien'\n"],
  ['fetch-head', `${OID}\tnot-for-merge\tbranch 'main' of ../up\n`],
  ['packed-refs', `# pack-refs with: peeled fully-peeled sorted \n${OID} refs/tags/v2\n^${OID}\n`],
  ['ref-name', 'refs/heads/side\n'],
  ['update-refs', `refs/heads/topic\n${OID}\n${OID}\n`],
  ['bisect-terms', 'bad\ngood\n'],
  ['bisect-start', 'main\n'],
  ['bisect-start', 'feature/x'],
  ['bisect-start', `${OID}\n`],
  ['bisect-start', ''],
  ['todo', 'reset 1a2b3c4 # a branch point outside the list\nmerge -C 1234567 feature/topic.v2 # Merge\n'],
  ['flag', 't\n'],
  ['flag', ''],
  ['number', '12\n'],
  ['empty', ''],
  ['commondir', '../..\n'],
];
for (const [rule, text] of accepted) {
  test(`${rule} accepts ${JSON.stringify(text.slice(0, 50))}`, (t) => {
    t.is(checkGitData(rule, text), undefined);
  });
}

const refused: [GitDataRule, string][] = [
  ['ref', 'ref: ../../evil\n'],
  ['ref', 'ref: refs/heads/a..b\n'],
  ['ref', 'garbage\n'],
  ['oid', `${OID}\n${OID}\n`],
  ['strategy', '../evil\n'],
  ['strategy', 'ort\nresolve\n'],
  ['strategy', 'Ort'],
  ['strategy-options', ' --evil'],
  ['strategy-options', ' patience'],
  ['todo', `pick ${OID}\nexec touch /tmp/pwn\n`],
  ['todo', 'x touch /tmp/pwn\n'],
  ['todo', `  exec\ttouch /tmp/pwn\n`],
  ['todo', 'pick HEAD~1\n'],
  ['todo', 'merge -C HEAD topic\n'],
  ['todo', 'merge -s evil topic\n'],
  ['todo', 'update-ref ../x\n'],
  ['todo', 'break now\n'],
  // A word git resolves when the line runs: never reflog, peeling, search or path syntax.
  ['todo', 'reset main@{1}\n'],
  ['todo', 'reset @{-1}\n'],
  ['todo', 'reset @\n'],
  ['todo', `merge -C ${OID} HEAD^2\n`],
  ['todo', 'merge topic~1\n'],
  ['todo', 'reset :/tidy\n'],
  ['todo', 'reset -b\n'],
  ['todo', 'label a..b\n'],
  // A replace ref makes git read another object in place of one: never a ref git later writes a commit into.
  ['todo', `update-ref refs/replace/${OID}\n`],
  ['ref-name', `refs/replace/${OID}\n`],
  ['update-refs', `refs/replace/${OID}\n${OID}\n${OID}\n`],
  ['ref', `ref: refs/replace/${OID}\n`],
  ['bisect-start', '--orphan=x\n'],
  ['bisect-start', 'main@{1}\n'],
  ['bisect-start', 'main\nside\n'],
  ['bisect-start', 'a b\n'],
  ['sequencer-options', '[options]\n\tstrategy = ../evil\n'],
  ['sequencer-options', '[options]\n\tstrategy = evil\n'],
  ['sequencer-options', '[options]\n\tgpg-sign = -Sx\n'],
  ['sequencer-options', '[include]\n\tpath = ../x\n'],
  ['sequencer-options', '[options]\n\tstrategy-option = "theirs"\n'],
  ['author-script', "GIT_AUTHOR_NAME='u'\nexport PATH=/tmp\n"],
  ['author-script', "GIT_AUTHOR_NAME='u'$(id)'\n"],
  ['fetch-head', 'ext::sh -c id\n'],
  ['empty', 'x'],
  ['flag', 'yes'],
  ['number', '1e9'],
  ['bisect-terms', 'bad\ngood\nthird\n'],
  ['update-refs', `refs/heads/topic\n${OID}\n`],
  ['oid', `${OID}\u0000`],
  ['commondir', '../../../elsewhere\n'],
];
for (const [rule, text] of refused) {
  test(`${rule} refuses ${JSON.stringify(text.slice(0, 50))}`, (t) => {
    t.is(typeof checkGitData(rule, text), 'string');
  });
}
