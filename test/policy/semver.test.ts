import test from 'ava';
import { compareSemver, parseSemver } from '../../src/policy/semver.js';

const cmp = (a: string, b: string) => compareSemver(parseSemver(a)!, parseSemver(b)!);

test('valid versions, with and without a v, and the shorthands', (t) => {
  for (const v of ['0.3.0', 'v0.3.0', 'v1', '1.2', '0.3.0-rc.1', '1.0.0+build.7', '1.0.0-alpha.beta-2+001']) t.not(parseSemver(v), undefined, v);
  t.deepEqual(parseSemver('v1'), { major: 1, minor: 0, patch: 0, prerelease: [] });
});

test('invalid versions (spec B §1.4)', (t) => {
  for (const v of ['', 'dev', '(devel)', 'V0.3.0', '01.2.3', '1.02.3', '1.2.3-01', '1.2-pre', '1.2.3.4', ' 1.2.3', '1.2.3-', 'not-a-version']) {
    t.is(parseSemver(v), undefined, v);
  }
});

test('ordering: shorthands equal their long forms, prereleases sort below releases, build metadata is ignored', (t) => {
  t.is(cmp('v1', '1.0.0'), 0);
  t.is(cmp('1.2', '1.2.0'), 0);
  t.true(cmp('0.3.0-rc.1', '0.3.0') < 0);
  t.true(cmp('0.2.75', '0.3.0') < 0);
  t.is(cmp('0.3.0', '0.3.0'), 0);
  t.is(cmp('1.0.0+a', '1.0.0+b'), 0);
  t.true(cmp('1.0.0-alpha', '1.0.0-alpha.1') < 0);
  t.true(cmp('1.0.0-alpha.1', '1.0.0-alpha.beta') < 0);
  t.true(cmp('1.0.0-2', '1.0.0-10') < 0);
  t.true(cmp('1.10.0', '1.9.0') > 0);
});
