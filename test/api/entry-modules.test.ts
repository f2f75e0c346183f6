// The public API (src/index.ts) is the entry modules of src/api/ re-exported
// unchanged (issue 11): the names an embedder sees stay exactly these, and an
// entry module exports nothing that is not public.
import test from 'ava';
import * as api from '../../src/index.js';
import * as agents from '../../src/api/agents.js';
import * as archive from '../../src/api/archive.js';
import * as check from '../../src/api/check.js';
import * as confinement from '../../src/api/confinement.js';
import * as consent from '../../src/api/consent.js';
import * as evaluation from '../../src/api/eval.js';
import * as github from '../../src/api/github.js';
import * as policy from '../../src/api/policy.js';
import * as run from '../../src/api/run.js';
import * as sessions from '../../src/api/sessions.js';
import * as state from '../../src/api/state.js';
import * as terminal from '../../src/api/terminal.js';
import * as cost from '../../src/api/cost.js';

// The value exports of zotbox 0.1.0 before the split, and those issue 11 added
// (prepare once, run many; the pool's and the model budget's defaults), written out by hand.
const PUBLIC_NAMES = [
  // issue 24 §4: the program directories a run checks and the search path it uses (what --program-path shows).
  'resolveProgramDirectories',
  'searchPathWith',
  'DEFAULT_MAX_RUNS',
  'DEFAULT_MODEL_CONCURRENCY',
  'ModelEndpoints',
  'PROCESS_MODEL_ENDPOINTS',
  'executeRun',
  'prepareRun',
  'AgentImage',
  'AgentPool',
  'CHECK_TOOLS',
  'DEFAULT_GITHUB_BASE',
  'DEFAULT_LIMITS',
  'ERROR_CODES',
  'ReplayProvider',
  'ReplayTranscriptSchema',
  'RunEventSchema',
  'TerminalTextSanitizer',
  'ZOTBOX_VERSION',
  'ZOT_COMPAT_VERSION',
  'ZotboxError',
  'ZstdDecompressionWorker',
  'agentDataDirectory',
  'agentSessionsDirectory',
  'archiveUrl',
  'checkPermission',
  'checkRequirements',
  'compileScopes',
  'createExecutor',
  'decidePathAccess',
  'decideShellCommand',
  'describeConfinement',
  'detectBubblewrap',
  'ensureAgentDirectories',
  'escapeControlCharacters',
  'findUnmetRequirements',
  'formatConsentText',
  'formatGitHubRemote',
  'fromWireError',
  'goOsName',
  'historyForContinuation',
  'inspectAgent',
  'isDigest',
  'isGitHubShorthand',
  'isZotboxError',
  'latestSessionFile',
  'listBundledSkills',
  'listReceipts',
  'loadAgent',
  'loadGitHubImage',
  'loadImageFromArchive',
  'loadImageFromDirectory',
  'loadImageFromFile',
  'openAgent',
  'openLocalAgent',
  'packAgent',
  'packOutputPath',
  'parseConfineMode',
  'parseGitHubAgentUrl',
  'parseGitHubShorthand',
  'parseManifest',
  'parseShellCommand',
  'planSession',
  'readConsentKey',
  'readMatchingReceipt',
  'readReplayTranscript',
  'readSession',
  'receiptPath',
  'reportAgent',
  'requestConsent',
  'resolveAgentReference',
  'resolveConfinement',
  'resolveStateDirectory',
  'revokeReceipts',
  'runAgent',
  'sanitizeTerminalText',
  'summarizePermissions',
  'unpackArchiveFile',
  'verifyAgent',
  // Issue 13: sessions per workspace (api/sessions.ts), a usable state directory checked first (api/state.ts).
  'findSession',
  'listSessions',
  'readSessionHeader',
  'removeSession',
  'sessionWorkspace',
  // Issue 27: sessions prune.
  'pruneSessions',
  'requireUsableStateDirectory',
  'stateDirectoryOrigin',
  // Issue 14: evaluations (api/eval.ts).
  'runEval',
  'DEFAULT_EVAL_MAX_RUNS',
  'EvalSuiteSchema',
  'EvalReportSchema',
  'EVAL_REPORT_VERSION',
  'readEvalReport',
  'formatHtmlReport',
  'formatJsonReport',
  'writeReportFile',
  'writeReportFiles',
  'mergeEvalReports',
  'formatJunit',
  'formatMarkdownSummary',
  'githubAnnotations',
  'appendStepSummary',
  'casesToRerun',
  'caseKey',
  'caseInShard',
  'parseShard',
  'shardFromEnvironment',
  // Issue 21: agent data, sessions and receipts keyed by name and source (api/state.ts); agentDataDirectory
  // and agentSessionsDirectory now take { name, source }.
  'adoptLegacyAgentData',
  'agentDirectory',
  'agentSourceKey',
  'describeAgentSource',
  'listAgentDirectories',
  'listLegacyAgentData',
  'moveAgentData',
  'resolveSourceReference',
  // Issue 27 §6: cost prints one way (api/cost.ts), and the eval's cost text from its cases (api/eval.ts).
  'NO_PRICE',
  'formatCost',
  'formatCostSum',
  'formatCasesCost',
  'runCostParts',
];

// errors.ts and version.ts are re-exported by index.ts directly; everything else comes through an entry module.
const FROM_ERRORS_AND_VERSION = ['ERROR_CODES', 'ZOTBOX_VERSION', 'ZOT_COMPAT_VERSION', 'ZotboxError', 'fromWireError', 'isZotboxError'];

const ENTRIES: Readonly<Record<string, Readonly<Record<string, unknown>>>> = { agents, archive, check, confinement, consent, cost, eval: evaluation, github, policy, run, sessions, state, terminal };

test('the public API exports exactly the names it had before the split', (t) => {
  t.deepEqual(Object.keys(api).sort(), [...PUBLIC_NAMES].sort());
});

test('every export of an entry module is the same binding the public API exports', (t) => {
  for (const [entry, exports] of Object.entries(ENTRIES)) {
    for (const [name, value] of Object.entries(exports)) {
      t.true(Object.hasOwn(api, name), `api/${entry}.ts exports ${name}, which index.ts does not`);
      t.is((api as Record<string, unknown>)[name], value, `${name} from api/${entry}.ts is not index.ts's ${name}`);
    }
  }
});

test('the entry modules together with errors and version cover the whole public API, each name once', (t) => {
  const fromEntries = Object.values(ENTRIES).flatMap((exports) => Object.keys(exports));
  t.is(new Set(fromEntries).size, fromEntries.length, 'a name is exported by two entry modules');
  t.deepEqual([...fromEntries, ...FROM_ERRORS_AND_VERSION].sort(), [...PUBLIC_NAMES].sort());
});
