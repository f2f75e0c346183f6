// Review s31, finding 8 (index-hash-ambiguity). The parser tried SHA-1, then
// SHA-256, whatever the repository's extensions.objectFormat: an index the user's
// git reads as SHA-1 could be checked by zotbox as SHA-256, a different reading of
// the same bytes (other entry boundaries, other flags). Now the index is read in
// the repository's own format only. Expected by hand: in a SHA-1 repository, an
// index that is valid only as SHA-256 (here with a skip-worktree entry that the
// SHA-256 reading would have shown, and cleared, as new) is refused whole: its
// SHA-1 reading fails, so nothing about it is trusted and the run stops.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { recordGitDirectory } from '../../src/host/executors/confine/git-directory-state.js';
import { indexFlagViolations } from '../../src/host/executors/confine/git-index-flags.js';
import { buildIndex } from '../fixtures/git-index-bytes.js';
import { tempDir } from '../fixtures/temp.js';

for (const [format, other] of [
  ['sha1', 'sha256'],
  ['sha256', 'sha1'],
] as const) {
  test(`in a ${format} repository an index that parses only as ${other} is refused, never read the other way`, (t) => {
    const workspace = tempDir(t, 'zb-s31-hash-');
    execFileSync('git', ['init', '-q', `--object-format=${format}`, workspace], { env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', GIT_CONFIG_NOSYSTEM: '1', HOME: workspace } });
    const gitDir = path.join(workspace, '.git');
    const before = recordGitDirectory(gitDir, false);
    const crafted = buildIndex({ version: 3, hash: other, entries: [{ name: 'package.json', skip: true }] });
    writeFileSync(path.join(gitDir, 'index'), crafted);

    const violations = indexFlagViolations(gitDir, before, recordGitDirectory(gitDir, false));
    t.is(violations.length, 1, JSON.stringify(violations));
    t.regex(violations[0]?.reason ?? '', new RegExp(`cannot read it whole as a ${format === 'sha1' ? 'SHA-1' : 'SHA-256'} index, the repository's object format`, 'u'));
    t.deepEqual(readFileSync(path.join(gitDir, 'index')), crafted, 'left for the user, who is told to rebuild it');
  });
}
