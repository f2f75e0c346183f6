import test from 'ava';
import { createCommandIsolation } from '../../../../src/host/executors/confine/command-isolation.js';
import { describeConfinement, parseConfineMode, resolveConfinement, summarizeConfinement } from '../../../../src/host/executors/confine/mode.js';

const works = () => ({ bwrap: '/usr/bin/bwrap' });
const broken = () => ({ reason: 'bubblewrap (bwrap) is not installed' });

test('confinement is required by default: with bubblewrap it is used, without it commands are refused, never run unconfined', async (t) => {
  t.deepEqual(resolveConfinement('required', works), { kind: 'bubblewrap', bwrap: '/usr/bin/bwrap' });
  t.deepEqual(resolveConfinement('required', broken), { kind: 'unavailable', reason: 'bubblewrap (bwrap) is not installed' });
  const isolation = createCommandIsolation(resolveConfinement('required', broken), { readRoots: [], writeRoots: [] });
  const error = await t.throwsAsync(() => isolation.beginCall());
  t.is((error as { code?: string }).code, 'ZB_CONFINEMENT_UNAVAILABLE');
  t.regex(error.message, /apt-get install bubblewrap/);
  t.regex(error.message, /--confine off/);
});

test('only the explicit opt-out runs unconfined, and it is named so', (t) => {
  const off = resolveConfinement('off', works);
  t.deepEqual(off, { kind: 'unconfined' });
  t.regex(describeConfinement(off), /^UNCONFINED: commands run with your full user rights/);
});

test('what consent binds: confined (even where bubblewrap is missing, since nothing then runs) or unconfined', (t) => {
  t.is(summarizeConfinement({ kind: 'bubblewrap', bwrap: '/x' }), 'bubblewrap');
  t.is(summarizeConfinement({ kind: 'unavailable', reason: 'r' }), 'bubblewrap');
  t.is(summarizeConfinement({ kind: 'unconfined' }), 'unconfined');
});

test('--confine words: required (and its old spellings) or off; anything else is not a mode', (t) => {
  for (const word of ['required', 'require', 'auto', 'on']) t.is(parseConfineMode(word), 'required', word);
  t.is(parseConfineMode('off'), 'off');
  for (const word of ['', 'OFF', 'none', 'false', 'no']) t.is(parseConfineMode(word), undefined, word);
});

test('inspect and run.start say plainly when commands will be refused, and how to fix it', (t) => {
  const text = describeConfinement({ kind: 'unavailable', reason: 'bubblewrap (bwrap) is not installed' });
  t.regex(text, /commands will be refused/);
  t.regex(text, /macOS Seatbelt confinement is future work/);
});

test('a refused command names the diagnosed cause (details.cause) and its fix, and points at zotbox doctor', async (t) => {
  const confinement = resolveConfinement('required', () => ({ reason: 'AppArmor restricts unprivileged user namespaces', cause: 'apparmor', fix: 'sudo zotbox doctor --fix-apparmor' }));
  t.deepEqual(confinement, { kind: 'unavailable', reason: 'AppArmor restricts unprivileged user namespaces', cause: 'apparmor', fix: 'sudo zotbox doctor --fix-apparmor' });
  const error = await t.throwsAsync(createCommandIsolation(confinement, { readRoots: [], writeRoots: [] }).beginCall());
  t.is((error as { code?: string }).code, 'ZB_CONFINEMENT_UNAVAILABLE');
  t.like((error as unknown as { details: unknown }).details, { cause: 'apparmor' });
  t.regex(error.message, /and AppArmor restricts unprivileged user namespaces\. Fix: sudo zotbox doctor --fix-apparmor\. `zotbox doctor` checks it again\./u);
});
