// Consent for a suite: one question for every case, with each case's workspace
// written ${workspace}; and no consent at all for a scope that reaches the other
// cases' workspaces through the eval's temp directory.
import test from 'ava';
import type { ConsentRequest, ConsentSummary } from '../../../src/host/consent/request-consent.js';
import { suiteConsent, templatePermissions } from '../../../src/host/eval/suite-consent.js';

const ROOT = '/tmp/zotbox-eval-abc';
const dirs = (n: number) => ({ workspace: `${ROOT}/${n}`, agentData: `${ROOT}/data-${n}` });
const summary = (read: string[], write: string[] = []): ConsentSummary => ({ read, write, bash: { mode: 'none', allow: [] }, confinement: 'bubblewrap' });

test('the case workspace becomes ${workspace}; a root --allow-scope allowed stays expanded', (t) => {
  const workspace = `${ROOT}/1`;
  const template = templatePermissions(summary([workspace, `${workspace}/docs`, `${ROOT}/data-1`, '/srv/shared/x'], [`${workspace}/out`, `${ROOT}/data-1/notes`]), dirs(1), ROOT, ['/srv/shared']);
  t.deepEqual(template.read, ['${workspace}', '${workspace}/docs', '${agent_data}', '/srv/shared/x']);
  t.deepEqual(template.write, ['${workspace}/out', '${agent_data}/notes']);
});

// Issue 22 §5: by default an eval grants only the case's own folders, whatever the suite's agent asks.
const notAllowed = test.macro((t, read: string[], write: string[], allowed: string[], scope: string, access: string) => {
  const error = t.throws(() => templatePermissions(summary([`${ROOT}/1`, ...read], write), dirs(1), ROOT, allowed));
  t.is((error as { code?: string }).code, 'ZB_EVAL_SCOPE_NOT_ALLOWED');
  t.deepEqual((error as { details?: unknown }).details, { scope, access, flag: '--allow-scope' });
  t.regex(error.message, new RegExp(`--allow-scope ${scope.replaceAll('/', '\\/')}`));
});
test('a read scope on a host folder is refused by default', notAllowed, ['/home/u/.ssh'], [], [], '/home/u/.ssh', 'read');
test('a write scope on a host folder is refused by default', notAllowed, [], ['/srv/shared'], [], '/srv/shared', 'write');
test('a scope beside an allowed folder is refused', notAllowed, ['/srv/shared2'], [], ['/srv/shared'], '/srv/shared2', 'read');
test('a scope above an allowed folder is refused', notAllowed, ['/srv'], [], ['/srv/shared'], '/srv', 'read');

test("an agent that reads environment variables is refused: an eval passes none of the user's to a suite's agent", (t) => {
  const error = t.throws(() => templatePermissions({ ...summary([`${ROOT}/1`]), env: ['GITHUB_TOKEN'] }, dirs(1), ROOT, ['/']));
  t.like(error, { code: 'ZB_EVAL_ENV_NOT_ALLOWED', details: { variables: ['GITHUB_TOKEN'] } });
});

test('a sibling whose name starts like the workspace is not the workspace', (t) => {
  const error = t.throws(() => templatePermissions(summary([`${ROOT}/10`]), dirs(1), ROOT));
  t.is((error as { code?: string }).code, 'ZB_EVAL_SCOPE_OUTSIDE_WORKSPACE');
});

const reachesOtherCases = test.macro((t, root: string) => {
  const error = t.throws(() => templatePermissions(summary([`${ROOT}/1`], [root]), dirs(1), ROOT));
  t.is((error as { code?: string }).code, 'ZB_EVAL_SCOPE_OUTSIDE_WORKSPACE');
});
test('a scope on the eval temp directory itself is refused', reachesOtherCases, ROOT);
test('a scope on another case is refused', reachesOtherCases, `${ROOT}/2`);
test("a scope on another case's agent data is refused", reachesOtherCases, `${ROOT}/data-2`);
test('a scope above the eval temp directory (/tmp) is refused', reachesOtherCases, '/tmp');
test('a scope of / is refused', reachesOtherCases, '/');

function request(workspace: string): ConsentRequest {
  return {
    permissions: summary([workspace]),
    workspace,
    name: 'x',
    version: '1',
    contentDigest: 'sha256:0',
    artifactDigest: undefined,
    yes: false,
    env: {},
    reference: 'x',
    stateDirectory: '/s',
  } as unknown as ConsentRequest;
}

test('every case of a suite shares one question, asked with the template and the suite as its workspace', async (t) => {
  const asked: ConsentRequest[] = [];
  let answer: (outcome: 'prompt') => void = () => undefined;
  const consent = suiteConsent(ROOT, '/evals/main.yaml', [], (r) => {
    asked.push(r);
    return new Promise((resolve) => (answer = resolve));
  });
  const first = consent.obtain(request(`${ROOT}/1`), dirs(1));
  const second = consent.obtain(request(`${ROOT}/2`), dirs(2));
  answer('prompt');
  t.deepEqual(await Promise.all([first, second]), ['prompt', 'prompt']);
  t.is(asked.length, 1);
  t.deepEqual(asked[0]?.permissions.read, ['${workspace}']);
  t.is(asked[0]?.workspace, 'eval:/evals/main.yaml');
  t.deepEqual(consent.consented(), { permissions: summary(['${workspace}']), outcome: 'prompt' });
});

test('a case whose permissions differ from what was consented is asked again', async (t) => {
  let questions = 0;
  const consent = suiteConsent(ROOT, '/evals/main.yaml', ['/srv/data'], async () => {
    questions++;
    return 'flag';
  });
  await consent.obtain(request(`${ROOT}/1`), dirs(1));
  await consent.obtain({ ...request(`${ROOT}/2`), permissions: summary([`${ROOT}/2`, '/srv/data']) }, dirs(2));
  t.is(questions, 2);
});

test('a refusal reaches every case', async (t) => {
  const consent = suiteConsent(ROOT, '/evals/main.yaml', [], () => Promise.reject(Object.assign(new Error('refused'), { code: 'ZB_HOST_CONSENT_REQUIRED' })));
  await t.throwsAsync(consent.obtain(request(`${ROOT}/1`), dirs(1)), { message: 'refused' });
  await t.throwsAsync(consent.obtain(request(`${ROOT}/2`), dirs(2)), { message: 'refused' });
});
