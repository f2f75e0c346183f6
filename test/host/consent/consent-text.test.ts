import test from 'ava';
import { escapeControlCharacters, formatConsentText, type ConsentTextInput } from '../../../src/host/consent/consent-text.js';

const DIGEST = `sha256:${'a'.repeat(64)}`;
const ARTIFACT = `sha256:${'b'.repeat(64)}`;
const input: ConsentTextInput = {
  name: 'reviewer',
  version: '1.2.0',
  contentDigest: DIGEST,
  artifactDigest: undefined,
  permissions: { read: ['/home/u/proj'], write: ['/home/u/proj/out'], bash: { mode: 'allowlist', allow: ['git', 'ls'] }, confinement: 'bubblewrap' },
};

test('confined: the whole text, with the sandbox described on the confinement line', (t) => {
  t.is(
    formatConsentText(input),
    [
      'Agent reviewer@1.2.0 wants to run.',
      `  content digest:  ${DIGEST}`,
      '',
      '  fs read:  /home/u/proj',
      '  fs write: /home/u/proj/out',
      '  bash:     allowlist (git, ls)',
      '  confinement: bubblewrap sandbox (system read-only, only the scopes above, no network)',
      '',
    ].join('\n'),
  );
});

test('unconfined: a line of its own says commands run with the full user rights', (t) => {
  const text = formatConsentText({ ...input, permissions: { ...input.permissions, confinement: 'unconfined' } });
  t.true(text.split('\n').includes('  UNCONFINED: commands run with your full user rights'));
  t.false(text.includes('confinement:'));
  t.false(text.includes('bubblewrap'));
});

test('a remote source is shown on its own line right under the agent line', (t) => {
  const lines = formatConsentText({ ...input, artifactDigest: ARTIFACT, remoteSource: 'acme/agents/reviewer@v1' }).split('\n');
  t.deepEqual(lines.slice(0, 4), ['Agent reviewer@1.2.0 wants to run.', '  source: github acme/agents/reviewer@v1', `  content digest:  ${DIGEST}`, `  artifact digest: ${ARTIFACT}`]);
  t.false(formatConsentText(input).includes('source:'), 'no line for a local agent');
});

test('an OSC 52 sequence in a scope path, the version, an allowlist entry or the source never reaches the terminal raw', (t) => {
  const osc52 = '\u001b]52;c;cm0gLXJmIH4=\u0007';
  const text = formatConsentText({
    ...input,
    version: `1\u001b[2J`,
    remoteSource: `acme/x@v1${osc52}`,
    permissions: { ...input.permissions, read: [`/home/u/a${osc52}b`], write: ['/w\u009d52;c;eA==\u009c'], bash: { mode: 'allowlist', allow: ['git\r'] } },
  });
  t.false(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/.test(text), 'only line feeds remain of the C0/C1 controls');
  t.true(text.includes('  fs read:  /home/u/a\\u001b]52;c;cm0gLXJmIH4=\\u0007b'));
  t.true(text.includes('  fs write: /w\\u009d52;c;eA==\\u009c'));
  t.true(text.includes('Agent reviewer@1\\u001b[2J wants to run.'));
  t.true(text.includes('  source: github acme/x@v1\\u001b]52;c;cm0gLXJmIH4=\\u0007'));
  t.true(text.includes('allowlist (git\\u000d)'));
});

const escapes = test.macro((t, raw: string, shown: string) => {
  t.is(escapeControlCharacters(raw), shown);
});
test('ESC is shown as \\u001b', escapes, 'a\u001bb', 'a\\u001bb');
test('BEL, TAB, CR, LF and NUL are shown escaped', escapes, '\u0007\t\r\n\u0000', '\\u0007\\u0009\\u000d\\u000a\\u0000');
test('DEL and the C1 controls (CSI, OSC, ST) are shown escaped', escapes, '\u007f\u0080\u009b\u009d\u009c\u009f', '\\u007f\\u0080\\u009b\\u009d\\u009c\\u009f');
test('bidi overrides and invisible characters are shown escaped', escapes, 'a\u202eb\u200bc\u2066d\ufeffe\u061c', 'a\\u202eb\\u200bc\\u2066d\\ufeffe\\u061c');
test('printable text, including non-ASCII, is left as it is', escapes, '/home/ü/проект/日本 ~$!', '/home/ü/проект/日本 ~$!');

test('a write scope that names a file other tools run is shown as a grant on its own line (issue 21 §5)', (t) => {
  const text = formatConsentText({ ...input, permissions: { ...input.permissions, write: ['/home/u/proj', '/home/u/proj/.vscode/settings.json'] } });
  t.true(text.split('\n').includes('  GRANTED, a file other tools run: /home/u/proj/.vscode/settings.json (VS Code runs the tasks, launch configurations and programs its settings name)'));
  t.false(formatConsentText(input).includes('GRANTED'), 'no such line for ordinary scopes');
});

test('net.allow: consent lists the hosts, the default ports, and says the network goes only to them', (t) => {
  const text = formatConsentText({ ...input, permissions: { ...input.permissions, net: ['api.github.com', '*.npmjs.org:443', 'evil\u001b]52;c;x\u0007.com'] } });
  t.true(text.includes('  net:      api.github.com, *.npmjs.org:443, evil\\u001b]52;c;x\\u0007.com (no port: 80 and 443 only)\n'));
  t.true(text.includes("network only to the hosts above through zotbox's proxy"));
  t.false(text.includes('no network'));
});
