# Fixture of reflog-checkout-dash.open.ts: makes a dangling commit E that plants a .husky/pre-commit payload
# and appends one line to .git/logs/HEAD saying HEAD moved from E to main. Usage: python3 FILE MARKER
import os, subprocess, sys
marker = sys.argv[1]
def run(*a, i=None, env=None):
    return subprocess.run(list(a), input=i, capture_output=True, check=True, env=env).stdout.decode().strip()
blob = run('git', 'hash-object', '-w', '--stdin', i=('#!/bin/sh\ntouch %s\n' % marker).encode())
husky = run('git', 'mktree', i=('100755 blob %s\tpre-commit\n' % blob).encode())
entries = [l for l in run('git', 'ls-tree', 'HEAD').split('\n') if not l.endswith('\t.husky')]
tree = run('git', 'mktree', i=('\n'.join(entries + ['040000 tree %s\t.husky' % husky]) + '\n').encode())
head = run('git', 'rev-parse', 'HEAD')
evil = run('git', 'commit-tree', tree, '-p', head, '-m', 'tidy', env=dict(os.environ, GIT_AUTHOR_NAME='a', GIT_AUTHOR_EMAIL='a@x', GIT_COMMITTER_NAME='a', GIT_COMMITTER_EMAIL='a@x'))
with open('.git/logs/HEAD', 'a') as log:
    log.write('%s %s a <a@x> 1700000000 +0000\tcheckout: moving from %s to main\n' % (head, head, evil))
print(evil)
