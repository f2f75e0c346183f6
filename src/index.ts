// The public library API of zotbox: everything an embedder may import, nothing else.
// The CLI (src/cli.ts) is a thin user of exactly these exports.

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
export { packAgent, packOutputPath, type PackOptions, type PackResult } from './host/load/pack-agent.js';

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
export { openAgent, openLocalAgent, type AgentSource, type OpenAgentOptions, type OpenedAgent } from './host/load/open-agent.js';
export { resolveAgentReference, type AgentReference } from './host/load/agent-reference.js';
export { formatGitHubRemote, isGitHubShorthand, parseGitHubAgentUrl, parseGitHubShorthand, type GitHubAgentRef } from './host/load/github-ref.js';
export { DEFAULT_GITHUB_BASE, archiveUrl, loadGitHubImage, type GitHubDownloadOptions } from './host/load/github.js';
export { inspectAgent, reportAgent, verifyAgent, type AgentReport, type AgentFileReport, type VerifyResult } from './host/load/inspect-agent.js';
export type { AgentIdentity, AgentLayout } from './host/load/agent-layout.js';

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
export { parseManifest, type Manifest, type BashMode } from './policy/manifest.js';

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
export { CHECK_TOOLS, checkPermission, type CheckOptions, type CheckResult, type CheckTool } from './host/run/check-permission.js';
export { agentDataDirectory, agentSessionsDirectory, ensureAgentDirectories, resolveStateDirectory, type StateEnvironment } from './host/consent/state-dir.js';

/**
 * Requirements and consent, checked before a run.
 *
 * @example
 * ```ts
 * checkRequirements(layout.manifest, { platform: process.platform });
 * await requestConsent({ stateDirectory, name, version, contentDigest, artifactDigest, permissions, yes: false, env: process.env, stdin: process.stdin, stdout: process.stdout, reference });
 * ```
 */
export { checkRequirements, findUnmetRequirements, goOsName, type RequirementContext } from './host/load/requirements.js';
export { describeConfinement, detectBubblewrap, parseConfineMode, resolveConfinement, type ConfineMode, type Confinement } from './host/executors/confine/mode.js';
export { createExecutor, type ExecutorOptions } from './host/executors/execute-approved.js';
export { listBundledSkills } from './host/executors/skill.js';

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
export { runAgent, type RunAgentOptions } from './host/run/run-agent.js';

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
export { prepareRun, type PrepareRunOptions, type RunPlan } from './host/run/run-plan.js';
export { executeRun, type ExecuteRunOptions } from './host/run/execute-run.js';
export { loadAgent, type LoadAgentOptions, type LoadedAgent } from './host/load/load-agent.js';
export { RunEventSchema, type RunEvent } from './host/run/run-events.js';
export { AgentPool, DEFAULT_MAX_RUNS, type AgentPoolOptions } from './host/run/pool.js';
export { planSession, type PlannedSession, type SessionChoice } from './host/run/run-session.js';
export { historyForContinuation, latestSessionFile, readSession, type LoadedSession, type SessionHeader } from './host/run/sessions.js';
export { ReplayProvider, ReplayTranscriptSchema, readReplayTranscript, type ReplayTranscript } from './host/providers/replay.js';

/**
 * The model budget: one entry per provider endpoint (provider + base URL) with one
 * keep-alive dispatcher, a FIFO concurrency limit (default 8) and a backoff shared by
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
export { DEFAULT_MODEL_CONCURRENCY, ModelEndpoints, PROCESS_MODEL_ENDPOINTS, type EndpointAddress, type ModelEndpoint, type ModelEndpointsOptions } from './host/providers/model-endpoints.js';
export type { EndpointClock } from './host/providers/endpoint-clock.js';
export type { BackoffPolicy } from './host/providers/backoff-gate.js';
export { escapeControlCharacters, formatConsentText, readConsentKey, requestConsent, summarizePermissions, type ConsentOutcome, type ConsentRequest, type ConsentTextInput } from './host/consent/request-consent.js';
export { listReceipts, readMatchingReceipt, receiptPath, revokeReceipts, type ConfinementSummary, type ConsentReceipt, type ConsentSummary, type ListedReceipt } from './host/consent/receipt.js';
export { decidePathAccess, type PathDecision, type PathTool } from './policy/path-decision.js';
export { decideShellCommand, type ExecutionPlan, type PlannedStep, type ShellContext, type ShellDecision } from './policy/shell-decision.js';
export { parseShellCommand, type ShellAst } from './policy/shell-parse.js';
export { compileScopes, type CompiledScopes, type ScopeContext } from './policy/scopes.js';

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
export { TerminalTextSanitizer, sanitizeTerminalText, type TerminalTextOptions } from './policy/terminal-text.js';

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
} from './archive/index.js';
export type { ArchiveLimits, Digest, ImageEntry, ImageFormat, LoadOptions, UnpackResult } from './archive/index.js';

