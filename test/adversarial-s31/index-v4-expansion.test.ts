// Review s31, findings 6 and 7 (index-v4-expansion, ls-files-failure-skips-rewrite).
// Version 4 prefix compression lets a small index name long paths: 25,000 entries
// each adding one byte to the previous name (a 1.6 MB index) name 312 MB, which
// the flag check once took from `git ls-files -v` through a synchronous spawn,
// blocking the host for seconds; and when that failed, the rewrite (stat data,
// caches) was skipped. Now the flags come from zotbox's own parser, which builds
// no name past MAX_INDEX_NAME_BYTES, and the rewrite happens whatever the check
// found. Expected by hand: the index is refused (the run stops) after every entry's
// stat data is zeroed, every flag the command could have set cleared and the caches
// dropped. Nothing on that path runs git (git-index-flags.ts imports no plumbing).
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { recordGitDirectory } from '../../src/host/executors/confine/git-directory-state.js';
import { indexFlagViolations } from '../../src/host/executors/confine/git-index-flags.js';
import { parseIndex } from '../../src/host/executors/confine/git-index-parse.js';
import { buildIndex, expandingNames } from '../fixtures/git-index-bytes.js';
import { tempDir } from '../fixtures/temp.js';

test('a version 4 index naming 312 MB is refused after the same rewrite as any other, without names past the bound', (t) => {
  const workspace = tempDir(t, 'zb-s31-v4-');
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', workspace, '-c', 'user.name=t', '-c', 'user.email=t@x', ...args], { env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', GIT_CONFIG_NOSYSTEM: '1', HOME: workspace } });
  git('init', '-q');
  writeFileSync(path.join(workspace, 'package.json'), '{}\n');
  git('add', '.');
  git('commit', '-qm', 'init');
  const gitDir = path.join(workspace, '.git');
  const index = path.join(gitDir, 'index');
  const before = recordGitDirectory(gitDir, false);

  // The command: the crafted index, with stat data git would trust, five skip-worktree entries and a cache-tree.
  const crafted = buildIndex({
    version: 4,
    entries: [...expandingNames(25_000, 5_000)].map((entry) => ({ ...entry, statByte: 0x22 })),
    extensions: [{ signature: 'TREE', body: Buffer.from('\u00001 0\n', 'latin1') }],
  });
  t.true(crafted.length < 1_700_000, 'precondition: a small index');
  writeFileSync(index, crafted);
  const violations = indexFlagViolations(gitDir, before, recordGitDirectory(gitDir, false));

  t.is(violations.length, 1, `${violations.length} violations, the first: ${violations[0]?.reason.slice(0, 200) ?? ''}`);
  t.is(violations[0]?.path, index);
  t.regex(violations[0]?.reason ?? '', /names total 312512500 bytes once expanded .* more than the 67108864 zotbox compares/u);
  t.regex(violations[0]?.reason ?? '', /zeroed the stat data of every entry, cleared the skip-worktree and assume-unchanged flags of its 5 flagged entries and dropped its caches/u);

  // The rewrite happened: read back, no flag, no stat data but the mode, no extension.
  const after = readFileSync(index);
  const parsed = parseIndex(after, 'sha1');
  if (!parsed.ok) return t.fail(parsed.reason);
  t.is(parsed.index.entries.length, 25_000);
  t.false(parsed.index.entries.some((e) => e.skip || e.valid));
  t.is(parsed.index.entriesEnd, after.length - 20, 'the cache-tree was dropped');
  const first = parsed.index.entries[0]!.at;
  t.deepEqual([...after.subarray(first, first + 24), ...after.subarray(first + 28, first + 40)], new Array(36).fill(0));
});
