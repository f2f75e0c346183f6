// Hand-written decisions for network clients, remote shells, containers and
// viewers (table-net.ts): curl and wget fetch http(s) only and write only where
// told; ssh, scp, sftp and editors are reduced to their version; pagers read.
import test from 'ava';
import { checkCases, each } from './gate-cases.js';
import { CONTAINER_CASES, CURL_CASES, EDITOR_CASES, REMOTE_CASES, VIEWER_CASES, WGET_CASES } from './net-cases.js';

test('curl fetches http(s) URLs and prints them, never reading or writing files', (t) => {
  checkCases(t, CURL_CASES);
});

test('wget saves only where -O or -P says, and runs nothing', (t) => {
  checkCases(t, WGET_CASES);
});

test('ssh, scp and sftp are denied except ssh -V', (t) => {
  checkCases(t, REMOTE_CASES);
});

test('docker and podman only inspect', (t) => {
  checkCases(t, each(['docker', 'podman'], CONTAINER_CASES));
});

test('less, more and man read the files named, without commands', (t) => {
  checkCases(t, VIEWER_CASES);
});

test('vim, vi and nvim print their version only', (t) => {
  checkCases(t, each(['vim', 'vi', 'nvim'], EDITOR_CASES));
});
