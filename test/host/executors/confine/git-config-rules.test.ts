import test from 'ava';
import { checkCreatedConfig, configuredDrivers, includedPaths } from '../../../../src/host/executors/confine/git-config-rules.js';

test('the config git init writes passes, with a remote and a tracking branch', (t) => {
  const text =
    '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n[remote "origin"]\n\turl = ../elsewhere\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[branch "main"]\n\tremote = origin\n\tmerge = refs/heads/main\n';
  t.deepEqual(checkCreatedConfig(text), { ok: true });
  t.deepEqual(checkCreatedConfig(''), { ok: true });
});

const refused: [string, string][] = [
  ['fsmonitor', '[core]\n\tfsmonitor = touch /tmp/x\n'],
  ['hooksPath', '[core]\n\thooksPath = ../hooks\n'],
  ['pager', '[core]\n\tpager = evil\n'],
  ['editor', '[core]\n\teditor = evil\n'],
  ['sshCommand', '[core]\n\tsshCommand = evil\n'],
  ['askpass', '[core]\n\taskPass = evil\n'],
  ['worktree redirect', '[core]\n\tworktree = /etc\n'],
  ['filter', '[filter "x"]\n\tclean = evil\n'],
  ['textconv', '[diff "x"]\n\ttextconv = evil\n'],
  ['external diff', '[diff]\n\texternal = evil\n'],
  ['credential helper', '[credential]\n\thelper = evil\n'],
  ['include', '[include]\n\tpath = ../evil.cfg\n'],
  ['includeIf', '[includeIf "gitdir:/"]\n\tpath = ../evil.cfg\n'],
  ['alias', '[alias]\n\tst = !evil\n'],
  ['upload-pack of a remote', '[remote "o"]\n\turl = ../x\n\tuploadpack = evil\n'],
  ['ext:: URL', '[remote "o"]\n\turl = ext::sh -c evil\n'],
  ['ext:: URL spelt with quotes', '[remote "o"]\n\turl = "ext:"":sh -c evil"\n'],
  ['an escaped value', '[remote "o"]\n\turl = ext:\\:sh\n'],
  ['gpg program', '[gpg]\n\tprogram = evil\n'],
  ['legacy section spelling', '[core.x]\n\tbare = false\n'],
  ['key before any section', 'bare = false\n'],
  ['continuation line', '[core]\n\tbare = fal\\\nse\n'],
  ['remote without a name', '[remote]\n\turl = ../x\n'],
  ['case variants are the same keys', '[CORE]\n\tFSMONITOR = evil\n'],
];
for (const [name, text] of refused) {
  test(`a new config with ${name} is refused`, (t) => {
    t.false(checkCreatedConfig(text).ok);
  });
}

test('driver names are read from every spelling, so each can be switched off', (t) => {
  const drivers = configuredDrivers(
    '[filter "lfs"]\n\tclean = git-lfs clean\n[Diff "pdf"]\n\ttextconv = pdftotext\n[merge "ours"]\n\tdriver = true\n[filter.old]\n\tclean = x\n[diff]\n\texternal = difftool\n',
  );
  t.deepEqual(drivers, { filters: ['lfs', 'old'], diffs: ['pdf'], merges: ['ours'], externalDiff: true });
  t.deepEqual(configuredDrivers('[core]\n\tbare = false\n'), { filters: [], diffs: [], merges: [], externalDiff: false });
});

test('included config files are found, so their drivers are switched off too', (t) => {
  t.deepEqual(includedPaths('[include]\n\tpath = a.cfg\n[includeIf "gitdir:x"]\n\tpath = "b.cfg"\n[core]\n\tpath = no\n'), ['a.cfg', 'b.cfg']);
});
