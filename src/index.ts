// The public library API of zotbox: everything an embedder may import, nothing else.
// It re-exports the entry modules of src/api/ (one per concern) unchanged; the CLI
// (src/cli.ts) is a thin user of exactly these exports, imported per command from
// those entry modules so that a command loads only what it uses (issue 11).

/**
 * The one error class. Every failure carries a stable `code` (`ZB_...`) and a
 * message that says what went wrong and how to fix it.
 *
 * @example
 * ```ts
 * import { ZotboxError, packAgent } from 'zotbox';
 * try {
 *   await packAgent('examples/code-reviewer', undefined, { cwd: process.cwd() });
 * } catch (error) {
 *   if (error instanceof ZotboxError && error.code === 'ZB_ARCHIVE_SOURCE_UNSUPPORTED') { ... }
 * }
 * ```
 */
export { ZotboxError, ERROR_CODES, isZotboxError, fromWireError } from './errors.js';
export type { ErrorCode, ErrorDetails, WireError } from './errors.js';

/** zotbox's version, and the zot version whose zotfile format it implements. */
export { ZOTBOX_VERSION, ZOT_COMPAT_VERSION } from './version.js';

/**
 * Packing: writes the canonical .zot of a source directory and returns both digests.
 *
 * @example
 * ```ts
 * const result = await packAgent('examples/code-reviewer', 'dist/reviewer.zot', { cwd: process.cwd() });
 * console.log(result.output, result.artifactDigest, result.contentDigest);
 * ```
 */
export { packAgent, packOutputPath, type PackOptions, type PackResult } from './api/agents.js';

/**
 * Reading agents: open a directory, a .zot, a GitHub URL or explicit `github:` shorthand
 * into a read-only in-memory image, describe it, or verify it. A reference that is
 * none of these is ZB_LOAD_NOT_FOUND; it is never looked up on GitHub by guess.
 *
 * @example
 * ```ts
 * const { image, layout } = await openLocalAgent('reviewer.zot', { cwd: process.cwd() });
 * const remote = await openAgent('github:acme/agents/reviewer@v1', { cwd: process.cwd() });
 * console.log(layout.identity.name, image.contentDigest, image.readText('AGENT.md'));
 * await verifyAgent('reviewer.zot', { cwd: process.cwd(), expect: 'sha256:…' });
 * ```
 */
export { openAgent, openLocalAgent, type AgentSource, type OpenAgentOptions, type OpenedAgent } from './api/agents.js';
export { resolveAgentReference, type AgentReference } from './api/agents.js';
export { formatGitHubRemote, isGitHubShorthand, parseGitHubAgentUrl, parseGitHubShorthand, type GitHubAgentRef } from './api/github.js';
export { DEFAULT_GITHUB_BASE, archiveUrl, loadGitHubImage, type GitHubDownloadOptions } from './api/github.js';
export { inspectAgent, reportAgent, verifyAgent, type AgentReport, type AgentFileReport, type AgentStorage, type InspectOptions, type VerifyResult } from './api/agents.js';
export type { AgentIdentity, AgentLayout } from './api/agents.js';

/**
 * The manifest: strict parsing (duplicate and case-variant keys rejected) and the
 * typed, validated value.
 *
 * @example
 * ```ts
 * const manifest = parseManifest(readFileSync('manifest.json'));
 * console.log(manifest.permissions.bash.mode);
 * ```
 */
export { parseManifest, type Manifest, type BashMode } from './api/agents.js';

/**
 * Permission checks: the decision the gate would make for one tool call.
 *
 * @example
 * ```ts
 * const result = await checkPermission('examples/repo-maintainer', 'bash', 'git status && ls', {
 *   cwd: process.cwd(), workspace: process.cwd(), stateDirectory: resolveStateDirectory({ env: process.env, homeDirectory: os.homedir(), platform: process.platform }),
 * });
 * console.log(result.allowed, result.reason);
 * ```
 */
export { CHECK_TOOLS, checkPermission, type CheckOptions, type CheckResult, type CheckTool } from './api/check.js';
/**
 * The state directory and each agent's own directory in it. An agent's data,
 * sessions and consent receipts belong to its name AND its source (the real path
 * of its folder or .zot, or GitHub's owner/repo/path): `<state>/agents/<name>-<key>/`.
 * `moveAgentData` is the one way they follow an agent to a new source.
 *
 * @example
 * ```ts
 * const agent = await loadAgent('examples/code-reviewer');
 * const data = agentDataDirectory(stateDirectory, { name: agent.layout.manifest.name, source: agent.sourceIdentity });
 * moveAgentData(stateDirectory, { agent: { name: 'code-reviewer', source: agent.sourceIdentity }, from: resolveSourceReference('/old/place/code-reviewer', process.cwd()) });
 * ```
 */
export {
  adoptLegacyAgentData,
  agentDataDirectory,
  agentDirectory,
  agentSessionsDirectory,
  agentSourceKey,
  describeAgentSource,
  ensureAgentDirectories,
  listAgentDirectories,
  listLegacyAgentData,
  moveAgentData,
  requireUsableStateDirectory,
  resolveSourceReference,
  resolveStateDirectory,
  stateDirectoryOrigin,
  type AgentDirectoryEntry,
  type AgentSourceIdentity,
  type AgentStateIdentity,
  type LegacyAgentData,
  type MoveRequest,
  type MovedAgentData,
  type StateDirectoryOrigin,
  type StateEnvironment,
} from './api/state.js';

/**
 * Requirements and consent, checked before a run.
 *
 * @example
 * ```ts
 * checkRequirements(layout.manifest, { platform: process.platform });
 * await requestConsent({ stateDirectory, name, version, contentDigest, artifactDigest, permissions, yes: false, env: process.env, stdin: process.stdin, stdout: process.stdout, reference });
 * ```
 */
export { checkRequirements, findUnmetRequirements, goOsName, type RequirementContext } from './api/consent.js';
export {
  describeConfinement,
  detectBubblewrap,
  parseConfineMode,
  resolveConfinement,
  resolveProgramDirectories,
  searchPathWith,
  type ConfineMode,
  type Confinement,
  type ProgramDirectory,
} from './api/confinement.js';
export { createExecutor, type ExecutorOptions } from './api/run.js';
export { listBundledSkills } from './api/run.js';

/**
 * Running agents: an async iterator of the run's events (docs/events.md).
 *
 * @example
 * ```ts
 * for await (const event of runAgent({ reference: 'examples/code-reviewer', cwd: process.cwd(), replayFile: 'examples/transcripts/code-reviewer.json', yes: true })) {
 *   if (event.type === 'assistant.delta') process.stdout.write(event.text);
 * }
 * ```
 */
export { runAgent, type RunAgentOptions } from './api/run.js';

/**
 * A chat message whose answer can be cancelled on its own: return it from
 * `readPrompt`, and abort its signal to stop that answer while the chat goes on.
 *
 * @example
 * ```ts
 * let answer = new AbortController();
 * process.on('SIGINT', () => answer.abort());
 * const readPrompt = async () => {
 *   answer = new AbortController();
 *   const text = await askTheUser();
 *   return text === undefined ? undefined : { text, signal: answer.signal };
 * };
 * ```
 */
export type { UserMessage } from './api/run.js';

/**
 * Per-command approval (`approveCommand`, what `zotbox run --approve` gives): called for a bash
 * call the gate denies only because a program is not in the allowlist, once every earlier event
 * was taken. Answer 'once', 'session' (that program for the rest of the run) or 'no'; an approved
 * call is decided again with every other check, and runs confined. Only for allowlist agents
 * whose commands are confined (ZB_APPROVE_BASH_MODE, ZB_APPROVE_UNCONFINED).
 *
 * @example
 * ```ts
 * const approveCommand: AskApproval = async ({ program, argv }) =>
 *   (await askTheUser(`run ${program.name} (${program.program})? ${JSON.stringify(argv)}`)) ? 'once' : 'no';
 * for await (const event of runAgent({ reference: 'my-agent', cwd: process.cwd(), prompt: 'go', approveCommand })) console.log(event.type);
 * ```
 */
export type { ApprovalAnswer, ApprovalRequest, AskApproval } from './api/run.js';

/**
 * Prepare once, run many: a plan holds what does not change between runs of an
 * agent in a workspace (loading, requirements, model, consent, scopes,
 * confinement); each execution is one run, and many may share a plan and a pool.
 *
 * @example
 * ```ts
 * const pool = new AgentPool({ maxRuns: 200 });
 * const plan = await prepareRun({ reference: 'examples/code-reviewer', cwd: process.cwd(), yes: true });
 * const runs = prompts.map(async (prompt) => { for await (const event of executeRun(plan, { prompt, pool })) handle(event); });
 * await Promise.all(runs);
 * await pool.close();
 * ```
 */
export { prepareRun, executeRun, type PrepareRunOptions, type RunPlan, type ExecuteRunOptions } from './api/run.js';
export { loadAgent, type LoadAgentOptions, type LoadedAgent } from './api/agents.js';
export { RunEventSchema, type RunEvent } from './api/run.js';
export { AgentPool, DEFAULT_MAX_RUNS, type AgentPoolOptions } from './api/run.js';

/**
 * The model budget: one entry per provider endpoint (provider + base URL) with one
 * keep-alive dispatcher, a FIFO concurrency limit (adaptive from 256 unless fixed) and a backoff shared by
 * every run on it. Runs use PROCESS_MODEL_ENDPOINTS unless given another registry.
 *
 * @example
 * ```ts
 * // A host with its own budget: at most 4 requests in flight per endpoint.
 * const modelEndpoints = new ModelEndpoints({ defaultConcurrency: 4 });
 * for await (const event of runAgent({ reference, cwd, env: process.env, modelEndpoints })) { ... }
 * await modelEndpoints.close();
 * ```
 */
export {
  DEFAULT_MODEL_CONCURRENCY,
  ModelEndpoints,
  PROCESS_MODEL_ENDPOINTS,
  type AdaptivePolicy,
  type BackoffPolicy,
  type EndpointAddress,
  type EndpointClock,
  type ModelEndpoint,
  type ModelEndpointsOptions,
} from './api/run.js';
export { planSession, type PlannedSession, type SessionChoice } from './api/run.js';
/**
 * Recorded sessions: each run's conversation, per agent, with the workspace it was recorded in.
 *
 * @example
 * ```ts
 * for (const s of listSessions(stateDirectory, 'code-reviewer')) console.log(s.id, s.workspace, s.messages);
 * const { messages } = readSession(findSession(stateDirectory, '20261130T171200Z-1a2b3c4d').file);
 * ```
 */
export {
  findSession,
  historyForContinuation,
  latestSessionFile,
  listSessions,
  pruneSessions,
  readSession,
  readSessionHeader,
  removeSession,
  sessionWorkspace,
  type FoundSession,
  type LoadedSession,
  type PruneCriteria,
  type SessionHeader,
  type SessionSummary,
} from './api/sessions.js';
export { ReplayProvider, ReplayTranscriptSchema, readReplayTranscript, type ReplayTranscript } from './api/run.js';
export { formatConsentText, readConsentKey, requestConsent, summarizePermissions, type ConsentOutcome, type ConsentRequest, type ConsentTextInput } from './api/consent.js';
export {
  listReceipts,
  readMatchingReceipt,
  receiptPath,
  revokeReceipts,
  type ConfinementSummary,
  type ConsentReceipt,
  type ConsentSummary,
  type ListedReceipt,
  type RevokeFilter,
} from './api/consent.js';
/**
 * Evaluations (docs/eval.md): run suites of cases on one pool, each in a fresh
 * workspace copy, check their expectations (JS graders confined in isolated-vm,
 * a judge model), and get the versioned JSON report; render it as JUnit, Markdown
 * or GitHub annotations; assign shards and merge shard reports.
 *
 * @example
 * ```ts
 * const report = await runEval({ suiteFiles: ['evals/main.yaml'], cwd: process.cwd(), env: process.env, yes: true, maxRuns: 32 });
 * writeReportFile('out/junit.xml', formatJunit(report));
 * process.exitCode = report.status === 'passed' ? 0 : 1;
 * ```
 */
export {
  runEval,
  DEFAULT_EVAL_MAX_RUNS,
  EvalSuiteSchema,
  EvalReportSchema,
  EVAL_REPORT_VERSION,
  readEvalReport,
  formatJsonReport,
  writeReportFile,
  writeReportFiles,
  mergeEvalReports,
  formatHtmlReport,
  formatJunit,
  formatMarkdownSummary,
  githubAnnotations,
  appendStepSummary,
  casesToRerun,
  formatCasesCost,
  runCostParts,
  caseKey,
  caseInShard,
  parseShard,
  shardFromEnvironment,
} from './api/eval.js';
export type {
  EvalOptions,
  EvalProgress,
  EvalSuite,
  EvalCase,
  Expectation,
  EvalReport,
  CaseResult,
  CaseRun,
  ExpectationResult,
  SuiteSummary,
  GraderInput,
  GraderVerdict,
  ChangedFile,
  Shard,
} from './api/eval.js';
/**
 * Cost, printed one way on every surface (run summaries, eval reporters, `models list`,
 * --max-cost messages): under $1 four decimals, from $1 two, and "no price" when unknown.
 *
 * @example
 * ```ts
 * formatCost(0.012345); // '$0.0123'
 * formatCost(12.345); // '$12.35'
 * formatCost(null); // 'no price' (a model without prices, a replay)
 * formatCostSum([0.5, null]); // '$0.5000 + no price'
 * ```
 */
export { NO_PRICE, formatCost, formatCostSum } from './api/cost.js';
export { decidePathAccess, type PathDecision, type PathTool } from './api/policy.js';
export { decideShellCommand, type ExecutionPlan, type PlannedStep, type ShellContext, type ShellDecision } from './api/policy.js';
export { parseShellCommand, type ShellAst } from './api/policy.js';
export { compileScopes, type CompiledScopes, type ScopeContext } from './api/policy.js';

/**
 * Text for a terminal: keeps colour (SGR) when asked and drops every other control
 * sequence, control character and bidi override; streaming-safe (docs/security.md).
 *
 * @example
 * ```ts
 * const out = new TerminalTextSanitizer({ keepColour: process.stdout.isTTY === true });
 * for await (const event of runAgent(options)) if (event.type === 'assistant.delta') process.stdout.write(out.feed(event.text));
 * process.stdout.write(out.end());
 * ```
 */
export { TerminalTextSanitizer, escapeControlCharacters, sanitizeTerminalText, type TerminalTextOptions } from './api/terminal.js';

/**
 * The archive layer: images, digests, limits, and safe extraction.
 *
 * @example
 * ```ts
 * const { target, files } = await unpackArchiveFile('reviewer.zot', './reviewer-src');
 * ```
 */
export {
  AgentImage,
  DEFAULT_LIMITS,
  ZstdDecompressionWorker,
  isDigest,
  loadImageFromArchive,
  loadImageFromDirectory,
  loadImageFromFile,
  unpackArchiveFile,
} from './api/archive.js';
export type { ArchiveLimits, Digest, ImageEntry, ImageFormat, LoadOptions, UnpackResult } from './api/archive.js';
