// zotbox reads a git config as git itself does, or it protects what one text names while git uses another (review
// s64m: a comment ending in `\`, a `]` in a quoted subsection, a tab in a value). The oracle is real git:
// `git config --file F --list --null` prints each entry as git's callbacks get it, up to a line git cannot read,
// and then fails naming that line. Odd spellings by hand, and a seeded, repeatable set of generated ones.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { entryName, readConfigEntries } from '../../../../src/host/executors/confine/git-config-text.js';

interface Reading {
  readonly entries: readonly string[];
  readonly badLine: number | undefined;
}

/** What real git reads in `text`: "name=value" (or "name" for a bare key) per entry, and the line it stops at. */
function gitReads(directory: string, text: string): Reading {
  const file = path.join(directory, 'config');
  writeFileSync(file, text);
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: directory, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', LC_ALL: 'C' };
  const run = spawnSync('git', ['config', '--file', file, '--list', '--null'], { cwd: directory, env, encoding: 'utf8' });
  if (run.error !== undefined) throw run.error;
  const entries = run.stdout
    .split('\u0000')
    .slice(0, -1)
    .map((chunk) => (chunk.includes('\n') ? chunk.replace('\n', '=') : chunk));
  if (run.status === 0) return { entries, badLine: undefined };
  const line = /bad config line (\d+) in file/u.exec(run.stderr);
  if (line === null) throw new Error(`git failed otherwise: ${run.stderr}`);
  return { entries, badLine: Number(line[1]) };
}

function zotboxReads(text: string): Reading {
  const reading = readConfigEntries(text);
  return { entries: reading.entries.map((e) => (e.value === undefined ? entryName(e) : `${entryName(e)}=${e.value}`)), badLine: reading.badLine };
}

function scratch(t: { teardown: (fn: () => void) => void }): string {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'zb-config-text-'));
  t.teardown(() => rmSync(directory, { recursive: true, force: true }));
  return directory;
}

test('the spellings of review s64m read as git reads them, stated by hand', (t) => {
  const read = (text: string) => zotboxReads(text).entries;
  // A comment ending in a backslash does not continue: the next line is an entry.
  t.deepEqual(read('[core]\n\t# hooks used to live in C:\\hooks\\\n\thooksPath = scripts/hooks\n'), ['core.hookspath=scripts/hooks']);
  t.deepEqual(read('[core]\n\teditor = vim ; \\\n\thooksPath = h\n'), ['core.editor=vim', 'core.hookspath=h']);
  // A `]` inside a quoted subsection belongs to it.
  t.deepEqual(read('[includeIf "gitdir:**/[w]s/"]\n\tpath = ../team.gitconfig\n'), ['includeif.gitdir:**/[w]s/.path=../team.gitconfig']);
  // Blanks outside quotes become spaces, one each; inside quotes they stay.
  t.deepEqual(read('[core]\n\thooksPath = scripts/my\thooks\n\tx = "a\tb"\n'), ['core.hookspath=scripts/my hooks', 'core.x=a\tb']);
  // A NUL cuts the variable and the value short, as C strings are cut.
  t.deepEqual(read('[core "hookspath\u0000x"]\n\tk = scripts/hooks\n[a]\n\tv = ab\u0000cd\n'), ['core.hookspath=scripts/hooks', 'a.v=ab']);
  // Where git stops, the reading stops, and says where.
  t.deepEqual(zotboxReads('[a]\n\tx = 1\n[b ]\n\ty = 2\n'), { entries: ['a.x=1'], badLine: 3 });
});

const HAND: readonly string[] = [
  '[core]\n\t# hooks used to live in C:\\hooks\\\n\thooksPath = scripts/hooks\n',
  '[core]\n\teditor = vim ; \\\n\thooksPath = h\n',
  '[includeIf "gitdir:**/[w]s/"]\n\tpath = ../team.gitconfig\n',
  '[core]\n\thooksPath = scripts/my\thooks\n',
  '[core "hookspath\u0000x"]\n\tk = scripts/hooks\n[a]\n\tv = ab\u0000cd\n',
  '\uFEFF[core]\r\n\thooksPath = a\r\n',
  '[core]\n\tx = a\rb\n\ty = "a\rb"\n\tz = a\\\r\n  b\n',
  '[core] fsmonitor = ./a\n[core][alias]x=y\n[core]bare\n',
  '[a.B.c]\n\tk = v\n[ "q"]\n\tk = v\n[c "a\\"b\\\\c"]\n\tk = v\n[core.]\n\tk = v\n',
  '[core ]\n\tk = v\n',
  '[]\n',
  '[core]\n\tk = "open\n',
  '[core]\n\tk = a\\qb\n',
  '[core]\n\tk = \\t\\b\\n\\"\\\\x\n\tk2 = "" lead\n\tk3 =  "  q  "  tail  \n',
  'k = above every header\n[core]\n\t9k = v\n',
  '[core]\n\tk-1 = v\n\tk_2 = v\n',
  '[core]\n\tk\t=\tv\n\tk2\n\tk3 = \n\tk4 x\n',
  '[core]\n\tk = a\v\fb\n\t\vk = v\n',
  '[core]\n\tk = a\\',
  '[core]\n\tk = a',
  '[core "x\\\nz"]\n',
  '[core "x"y]\n',
  '[core\n"x"]\n',
  '[co;re]\n',
  '  [  core  "x"  ]  k = v  ; c\n',
];

test('odd spellings by hand: zotbox reads what git reads, and stops where git stops', (t) => {
  const directory = scratch(t);
  for (const text of HAND) t.deepEqual(zotboxReads(text), gitReads(directory, text), JSON.stringify(text));
});

/** mulberry32: a small seeded generator, so the generated configs are the same on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const FRAGMENTS: readonly string[] = [
  '[core]',
  '[core "x"]',
  '[includeIf "gitdir:[w]/"]',
  '[a.B]',
  '[ "q"]',
  '[c "a\\"b"]',
  '\thooksPath = scripts/hooks',
  '\tpath = ../t.inc',
  'k=v',
  'k = "a b" c',
  'k = a\\',
  'k = a # c \\',
  '# comment \\',
  '; c',
  'bare',
  'k = "open',
  'k = a\\tb',
  'k = a\\qb',
  '',
];
const NOISE: readonly string[] = ['[', ']', '"', '\\', '#', ';', '=', '.', '-', ' ', '\t', '\r', '\v', '\f', 'a', 'K', '0', '\u0000', 'é', '~', '/'];
const ENDS: readonly string[] = ['\n', '\n', '\n', '\r\n', '\r'];

function generated(random: () => number): string {
  const pick = <T>(from: readonly T[]) => from[Math.floor(random() * from.length)]!;
  let text = '';
  const lines = 1 + Math.floor(random() * 6);
  for (let i = 0; i < lines; i++) {
    let line = pick(FRAGMENTS);
    for (let n = Math.floor(random() * 3); n > 0; n--) {
      const at = Math.floor(random() * (line.length + 1));
      line = line.slice(0, at) + pick(NOISE) + line.slice(at);
    }
    text += line + (random() < 0.9 ? pick(ENDS) : '');
  }
  return text;
}

test('generated spellings (seeded): zotbox reads what git reads, and stops where git stops', (t) => {
  const directory = scratch(t);
  const random = seeded(0x5eed64);
  let stopped = 0;
  for (let i = 0; i < 400; i++) {
    const text = generated(random);
    const git = gitReads(directory, text);
    if (git.badLine !== undefined) stopped++;
    t.deepEqual(zotboxReads(text), git, JSON.stringify(text));
  }
  // The set holds both kinds: texts git reads whole and texts it stops in.
  t.true(stopped > 40 && stopped < 360, `git stopped in ${stopped} of 400`);
});
