// Finding (s33e): a hook that is a symbolic link into the project (`ln -s ../../scripts/pre-commit.sh
// .git/hooks/pre-commit`, a common way to share hooks) is skipped by the hook reader (hookFiles reads only regular
// files: lstat), so what it runs is never read: `sh scripts/check.sh` in it leaves scripts/check.sh writable, and
// git, which follows the link, runs it. Class: hooks read where they lead (as tool entries already are, through
// resolveCanonicalPath), in .git/hooks and in core.hooksPath alike; a link zotbox cannot follow is unresolved.
import { symlinkSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, PAYLOAD, projectWithHook, userCommitRunsAgentCode } from './harness.js';

test('a hook linked to scripts/pre-commit.sh gets what that script runs refused to the write tool', (t) => {
  const ws = projectWithHook('#!/bin/sh\nexit 0\n', { 'scripts/pre-commit.sh': '#!/bin/sh\nsh scripts/check.sh\n' }, ['scripts/pre-commit.sh']);
  unlinkSync(path.join(ws, '.git/hooks/pre-commit'));
  symlinkSync('../../scripts/pre-commit.sh', path.join(ws, '.git/hooks/pre-commit'));
  const run = agentWrites(ws, 'scripts/check.sh', PAYLOAD.sh);
  t.false(userCommitRunsAgentCode(ws), `the user's git commit ran the agent's scripts/check.sh\n${run.output}`);
});
