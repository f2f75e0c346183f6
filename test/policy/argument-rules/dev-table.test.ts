// Hand-written decisions for the build tools and package managers (table-dev.ts):
// make, go, cargo, npm, pip. Cases written once for several subcommands or
// program names are still written by hand: `each` only fills in the name.
import test from 'ava';
import { checkCases } from './gate-cases.js';
import { CARGO_CASES, GO_BUILD_AND_TEST, GO_OTHER, MAKE_CASES, NPM_CASES, PIP_CASES } from './dev-cases.js';

test('make runs named targets only, with no assignments or other makefiles', (t) => {
  checkCases(t, MAKE_CASES);
});

test('go builds, tests, runs and lists packages in the scopes, never code at a version or through other programs', (t) => {
  checkCases(t, [...GO_BUILD_AND_TEST, ...GO_OTHER]);
});

test('cargo builds, tests, lints and formats, never installs or takes configuration', (t) => {
  checkCases(t, CARGO_CASES);
});

test('npm runs project scripts and lists packages, never installs or executes others', (t) => {
  checkCases(t, NPM_CASES);
});

test('pip lists and shows packages, never installs', (t) => {
  checkCases(t, PIP_CASES);
});
