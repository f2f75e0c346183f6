import test from 'ava';
import { checkRequirements, findUnmetRequirements, goOsName } from '../../../src/host/load/requirements.js';
import { parseManifest } from '../../../src/policy/manifest.js';

const manifest = (extra: Record<string, unknown>) => parseManifest(Buffer.from(JSON.stringify({ zotfile: 1, name: 'agent', ...extra })));
const linux = { platform: 'linux' as const, searchPath: ['/usr/bin', '/bin'] };

test('an agent without requirements runs anywhere', (t) => {
  t.deepEqual(findUnmetRequirements(manifest({}), linux), []);
});

test('Node platforms map to Go OS names', (t) => {
  t.is(goOsName('win32'), 'windows');
  t.is(goOsName('darwin'), 'darwin');
  t.is(goOsName('sunos'), 'solaris');
});

test('requirements.os must name this OS exactly', (t) => {
  t.deepEqual(findUnmetRequirements(manifest({ requirements: { os: ['linux', 'darwin'] } }), linux), []);
  const unmet = findUnmetRequirements(manifest({ requirements: { os: ['darwin', 'windows'] } }), linux);
  t.is(unmet.length, 1);
  t.regex(unmet[0]!, /darwin, windows: this machine runs linux/);
});

test('requirements.bin are found on the command search path without running them', (t) => {
  t.deepEqual(findUnmetRequirements(manifest({ requirements: { bin: ['sh'] } }), linux), []);
  const unmet = findUnmetRequirements(manifest({ requirements: { bin: ['sh', 'no-such-program-zb'] } }), linux);
  t.is(unmet.length, 1);
  t.regex(unmet[0]!, /"no-such-program-zb" .*install it/);
});

test('runtime.min_zot is compared with the zot version zotbox implements (spec B §1.4 vectors)', (t) => {
  const min = (v: string) => manifest({ runtime: { min_zot: v } });
  t.deepEqual(findUnmetRequirements(min('0.3.0'), { ...linux, zotVersion: '0.3.0' }), []);
  t.is(findUnmetRequirements(min('0.3.0'), { ...linux, zotVersion: '0.2.75' }).length, 1);
  t.is(findUnmetRequirements(min('0.3.0'), { ...linux, zotVersion: '0.3.0-rc.1' }).length, 1);
  t.deepEqual(findUnmetRequirements(min('v0.2'), linux), []);
  t.is(findUnmetRequirements(min('9.0.0'), linux).length, 1);
});

test('all unmet requirements are reported together with ZB_REQUIREMENT_UNMET', (t) => {
  const error = t.throws(() => checkRequirements(manifest({ runtime: { min_zot: '99.0.0' }, requirements: { os: ['windows'], bin: ['no-such-program-zb'] } }), linux));
  t.is((error as { code?: string }).code, 'ZB_REQUIREMENT_UNMET');
  t.is((error as { details?: { unmet?: string[] } }).details?.unmet?.length, 3);
});
