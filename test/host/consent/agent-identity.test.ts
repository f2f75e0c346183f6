// Agent identity (issue 21 §6): a name and a source key one directory, and no
// name can spell another agent's directory. Expected values are written by hand.
import test from 'ava';
import fc from 'fast-check';
import { agentDirectoryName, agentSourceKey, describeAgentSource, parseAgentDirectoryName, type AgentSourceIdentity } from '../../../src/host/consent/agent-identity.js';

const local = (p: string): AgentSourceIdentity => ({ kind: 'local', path: p });

test('a local source is shown as its real path, a GitHub one as github:OWNER/REPO[/PATH]', (t) => {
  t.is(describeAgentSource(local('/home/u/agents/reviewer')), '/home/u/agents/reviewer');
  t.is(describeAgentSource({ kind: 'github', owner: 'acme', repo: 'agents', path: 'reviewer' }), 'github:acme/agents/reviewer');
  t.is(describeAgentSource({ kind: 'github', owner: 'acme', repo: 'agents', path: '' }), 'github:acme/agents');
});

test('the directory is <name>-<16 hex of the source>: the same name from two folders gets two', (t) => {
  const trusted = agentDirectoryName({ name: 'repo-maintainer', source: local('/home/u/agents/repo-maintainer') });
  const stranger = agentDirectoryName({ name: 'repo-maintainer', source: local('/tmp/download/repo-maintainer') });
  t.regex(trusted, /^repo-maintainer-[0-9a-f]{16}$/);
  t.regex(stranger, /^repo-maintainer-[0-9a-f]{16}$/);
  t.not(trusted, stranger);
  t.not(agentSourceKey(local('/a/x.zot')), agentSourceKey(local('/a/x')), 'a .zot and its unpacked directory are two sources');
  t.not(agentSourceKey({ kind: 'github', owner: 'acme', repo: 'agents', path: 'x' }), agentSourceKey({ kind: 'github', owner: 'mallory', repo: 'agents', path: 'x' }), 'a fork is another source');
  t.is(agentDirectoryName({ name: 'a', source: local('/x') }), agentDirectoryName({ name: 'a', source: local('/x') }), 'stable');
});

test('a directory name parses back to its name and key; names zotbox would not make do not parse', (t) => {
  t.deepEqual(parseAgentDirectoryName('repo-maintainer-0123456789abcdef'), { name: 'repo-maintainer', key: '0123456789abcdef' });
  t.deepEqual(parseAgentDirectoryName('a-0123456789abcdef-fedcba9876543210'), { name: 'a-0123456789abcdef', key: 'fedcba9876543210' });
  for (const entry of ['repo-maintainer', '-0123456789abcdef', 'x-0123456789ABCDEF', 'x-0123456789abcde', 'x_0123456789abcdef', '.new-0123456789abcdef', 'X-0123456789abcdef', '..-0123456789abcdef']) {
    t.is(parseAgentDirectoryName(entry), undefined, entry);
  }
});

const NAME = fc.stringMatching(/^[a-z0-9]([a-z0-9._-]{0,30}[a-z0-9])?$/);
const KEY = fc.stringMatching(/^[0-9a-f]{16}$/);

test('no two (name, key) pairs spell one directory: every name, even one ending like a key, keeps its own', (t) => {
  fc.assert(
    fc.property(NAME, KEY, NAME, KEY, (name1, key1, name2, key2) => {
      const same = `${name1}-${key1}` === `${name2}-${key2}`;
      return same === (name1 === name2 && key1 === key2) && parseAgentDirectoryName(`${name1}-${key1}`)?.name === name1 && parseAgentDirectoryName(`${name1}-${key1}`)?.key === key1;
    }),
  );
  // A name made to look like another agent's directory gets a directory of its own, never that one.
  const victim = agentDirectoryName({ name: 'repo', source: local('/home/u/repo') });
  const impostor = agentDirectoryName({ name: victim, source: local('/tmp/x') });
  t.not(impostor, victim);
  t.deepEqual(parseAgentDirectoryName(impostor), { name: victim, key: agentSourceKey(local('/tmp/x')) });
});

test('an agent name that is not one is refused before it becomes a path', (t) => {
  for (const name of ['..', 'a/b', '', 'UPPER', '.hidden']) t.throws(() => agentDirectoryName({ name, source: local('/x') }), { instanceOf: TypeError }, name);
});
