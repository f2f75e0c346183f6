// A run's own signal, linked to a caller's signal that many runs share (issue 26):
// the caller's signal gets one listener however many link to it, aborting it
// aborts every linked signal with its reason, and an unlinked one is left alone.
import test from 'ava';
import { getEventListeners } from 'node:events';
import { linkSignal } from '../../../src/host/run/linked-signal.js';

test('a thousand links add one listener to the shared signal, and its abort reaches every one with its reason', (t) => {
  const shared = new AbortController();
  const links = Array.from({ length: 1000 }, () => linkSignal(shared.signal));
  t.is(getEventListeners(shared.signal, 'abort').length, 1);
  const reason = new Error('stop the batch');
  shared.abort(reason);
  t.true(links.every((link) => link.signal.aborted && link.signal.reason === reason));
});

test('an unlinked signal no longer follows the shared one', (t) => {
  const shared = new AbortController();
  const gone = linkSignal(shared.signal);
  const kept = linkSignal(shared.signal);
  gone.unlink();
  gone.unlink();
  shared.abort();
  t.false(gone.signal.aborted);
  t.true(kept.signal.aborted);
});

test('aborting a linked signal aborts only it', (t) => {
  const shared = new AbortController();
  const one = linkSignal(shared.signal);
  const other = linkSignal(shared.signal);
  one.abort('this run only');
  t.true(one.signal.aborted);
  t.false(other.signal.aborted);
  t.false(shared.signal.aborted);
});

test('a link to a signal already aborted is aborted at once, with its reason, and adds no listener', (t) => {
  const shared = new AbortController();
  shared.abort('already');
  const link = linkSignal(shared.signal);
  t.is(link.signal.reason, 'already');
  t.is(getEventListeners(shared.signal, 'abort').length, 0);
});

test('without a caller signal the link is a signal of its own', (t) => {
  const link = linkSignal(undefined);
  t.false(link.signal.aborted);
  link.abort('own');
  t.is(link.signal.reason, 'own');
});
