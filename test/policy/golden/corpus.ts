// The whole golden corpus, the allowlists its cases name, and the one way a
// case's placeholders become paths of a world. Shared by the decision test
// (golden.test.ts) and the differential sandbox test (test/e2e/gate-differential.test.ts).
import type { GateWorld } from '../../fixtures/golden-world.js';
import { ARCHIVES } from './archives.js';
import { BUILDERS } from './builders.js';
import { GIT } from './git.js';
import type { AllowlistName, GoldenCase, GoldenGroup } from './golden-case.js';
import { INTERPRETERS } from './interpreters.js';
import { ISSUE_EXAMPLES } from './issue.js';
import { NETWORK } from './network.js';
import { NO_RULE_CASES } from './no-rule.js';
import { READERS } from './readers.js';
import { SEARCH } from './search.js';
import { WRAPPERS } from './wrappers.js';
import { WRITERS } from './writers.js';

export const GOLDEN_CORPUS: readonly GoldenGroup[] = [
  ...ISSUE_EXAMPLES,
  ...GIT,
  ...SEARCH,
  ...ARCHIVES,
  ...READERS,
  ...WRITERS,
  ...INTERPRETERS,
  ...BUILDERS,
  ...NETWORK,
  ...WRAPPERS,
  ...NO_RULE_CASES,
];

/** Every program the corpus names, the never-allowed ones too: allowlisting them must grant nothing. */
const EVERY_PROGRAM: readonly string[] = [
  'git',
  'find',
  'rg',
  'grep',
  'sed',
  'awk',
  'mawk',
  'gawk',
  'jq',
  'sort',
  'tar',
  'zip',
  'rsync',
  'cat',
  'head',
  'tail',
  'wc',
  'ls',
  'stat',
  'file',
  'du',
  'nl',
  'od',
  'strings',
  'md5sum',
  'sha256sum',
  'cmp',
  'diff',
  'man',
  'less',
  'more',
  'vim',
  'tee',
  'touch',
  'mkdir',
  'rm',
  'rmdir',
  'truncate',
  'chmod',
  'cp',
  'mv',
  'ln',
  'bash',
  'sh',
  'python3',
  'node',
  'perl',
  'ruby',
  'make',
  'go',
  'npm',
  'pip',
  'pip3',
  'cargo',
  'curl',
  'wget',
  'ssh',
  'scp',
  'env',
  'timeout',
  'nohup',
  'nice',
  'stdbuf',
  'xargs',
  'frobnicate',
  'sudo',
  'doas',
  'su',
  'exec',
  'eval',
  'source',
  '.',
  'setsid',
];

export const ALLOWLISTS: Readonly<Record<AllowlistName, readonly string[]>> = {
  all: EVERY_PROGRAM,
  issue: ['git', 'timeout'],
  build: ['cargo', 'npm'],
  'no-frobnicate': EVERY_PROGRAM.filter((p) => p !== 'frobnicate'),
};

const PLACEHOLDERS = /\{(W|R|S|O|ROOT)\}/g;

/** The command with {W} {R} {S} {O} {ROOT} replaced by the world's paths. */
export function expandCommand(command: string, world: GateWorld): string {
  const paths = { W: world.ws, R: world.ro, S: world.secret, O: world.outside, ROOT: world.root } as const;
  return command.replace(PLACEHOLDERS, (_, name: keyof typeof paths) => paths[name]);
}

/** A case's options with their defaults, as one key (the contexts built for a world are shared by it). */
export function caseSettings(c: GoldenCase): { scopes: NonNullable<GoldenCase['scopes']>; allow: AllowlistName; confined: boolean } {
  return { scopes: c.scopes ?? 'workspace', allow: c.allow ?? 'all', confined: c.confined ?? true };
}
