# Fixture of todo-unchecked-commit.open.ts: leaves an interactive rebase stopped at
# `break` whose remaining todo line is `reset <E>` (or `merge -C <HEAD> <E>`), E a
# dangling commit that plants a .husky/pre-commit payload; or (bisect) a bisection whose
# BISECT_START names E. Usage: python3 FILE MARKER reset|merge|reflog|bisect
import os, subprocess, sys
marker, how = sys.argv[1], sys.argv[2]
def run(*a, i=None, env=None):
    return subprocess.run(list(a), input=i, capture_output=True, check=True, env=env).stdout.decode().strip()
blob = run('git', 'hash-object', '-w', '--stdin', i=('#!/bin/sh\ntouch %s\n' % marker).encode())
husky = run('git', 'mktree', i=('100755 blob %s\tpre-commit\n' % blob).encode())
entries = [l for l in run('git', 'ls-tree', 'HEAD').split('\n') if not l.endswith('\t.husky')]
tree = run('git', 'mktree', i=('\n'.join(entries + ['040000 tree %s\t.husky' % husky]) + '\n').encode())
head = run('git', 'rev-parse', 'HEAD')
evil = run('git', 'commit-tree', tree, '-p', head, '-m', 'tidy', env=dict(os.environ, GIT_AUTHOR_NAME='a', GIT_AUTHOR_EMAIL='a@x', GIT_COMMITTER_NAME='a', GIT_COMMITTER_EMAIL='a@x'))
if how == 'bisect':
    subprocess.run(['git', 'bisect', 'start'], capture_output=True, check=True)
    open('.git/BISECT_START', 'w').write(evil + '\n')
    sys.exit(0)
if how == 'reflog':
    # No object id at all: a reflog line (logs/ is not checked) makes main@{1} name E.
    with open('.git/logs/refs/heads/main', 'a') as log:
        log.write('%s %s a <a@x> 1700000000 +0000\tcommit: tidy\n' % (head, evil))
        log.write('%s %s a <a@x> 1700000001 +0000\treset: moving to HEAD~\n' % (evil, head))
line = {'reset': 'reset %s' % evil, 'merge': 'merge -C %s %s' % (head, evil), 'reflog': 'reset main@{1}'}[how]
open('todo.txt', 'w').write('break\n%s\n' % line)
subprocess.run(['git', 'rebase', '-i', 'HEAD'], env=dict(os.environ, GIT_SEQUENCE_EDITOR='cp todo.txt'), capture_output=True)
os.remove('todo.txt')
print(line)
