// Consent for an eval suite: asked once for all its cases, the way `run` asks
// (receipts, -y, ZOTBOX_AGENT_CONSENT=1, the prompt). Each case runs in its own
// temp workspace, so the permissions shown and keyed are the expanded ones with
// that workspace written `${workspace}`; the receipt's workspace is the suite
// file. A scope that reaches the temp directory other than through ${workspace}
// cannot be consented to once for every case, and is refused. Any other scope
// outside the case's own directories is refused too unless the command line
// allowed a folder holding it (--allow-scope): a suite from a pull request cannot
// grant its agent the host (issue 22 §5).
import { ZotboxError } from '../../errors.js';
import { isInsideRoot } from '../../policy/scopes.js';
import { requestConsent, type ConsentOutcome, type ConsentRequest, type ConsentSummary } from '../consent/request-consent.js';

export const WORKSPACE_PLACEHOLDER = '${workspace}';
export const AGENT_DATA_PLACEHOLDER = '${agent_data}';

/** A case's own directories, which the template writes as placeholders. */
export interface CaseDirectories {
  readonly workspace: string;
  readonly agentData: string;
}

export interface SuiteConsent {
  /** Given to prepareRun as obtainConsent for a run of the suite in these directories. */
  readonly obtain: (request: ConsentRequest, directories: CaseDirectories) => Promise<ConsentOutcome>;
  /** What was consented to (after the first run's plan), for the report. */
  readonly consented: () => { readonly permissions: ConsentSummary; readonly outcome: ConsentOutcome } | undefined;
}

/**
 * One suite's consent. `evalRoot` is the eval's temp directory, which holds every
 * case workspace; `suiteFile` is the canonical suite file, named in a saved receipt.
 */
export function suiteConsent(evalRoot: string, suiteFile: string, allowedScopes: readonly string[] = [], ask: typeof requestConsent = requestConsent): SuiteConsent {
  const answers = new Map<string, Promise<ConsentOutcome>>();
  let first: { permissions: ConsentSummary; outcome: ConsentOutcome } | undefined;
  return {
    obtain: async (request, directories) => {
      const permissions = templatePermissions(request.permissions, directories, evalRoot, allowedScopes);
      const key = JSON.stringify(permissions);
      let answer = answers.get(key);
      if (answer === undefined) {
        // Shared by every case with these permissions: one question, even when cases start at once.
        answer = ask({ ...request, permissions, workspace: `eval:${suiteFile}` });
        answers.set(key, answer);
      }
      const outcome = await answer;
      first ??= { permissions, outcome };
      return outcome;
    },
    consented: () => first,
  };
}

/**
 * The expanded permissions with the case's workspace written ${workspace} and its
 * agent data ${agent_data}. `allowedScopes`: canonical folders the command line
 * allowed (--allow-scope); a scope elsewhere is refused.
 */
export function templatePermissions(permissions: ConsentSummary, directories: CaseDirectories, evalRoot: string, allowedScopes: readonly string[] = []): ConsentSummary {
  // Issue 24 §2: a suite from a pull request could have its agent print the user's tokens into the report.
  if (permissions.env !== undefined && permissions.env.length > 0) {
    throw new ZotboxError(
      'ZB_EVAL_ENV_NOT_ALLOWED',
      `the agent reads the environment variables ${permissions.env.join(', ')} (permissions.env.read); an eval gives a suite's agent none of yours, since what its commands print goes into the report, and a suite may come from a pull request. Fix: evaluate an agent without env.read, or run this one with zotbox run.`,
      { details: { variables: [...permissions.env] } },
    );
  }
  const template = (root: string, access: 'read' | 'write'): string => {
    for (const [directory, placeholder] of [
      [directories.workspace, WORKSPACE_PLACEHOLDER],
      [directories.agentData, AGENT_DATA_PLACEHOLDER],
    ] as const) {
      if (root === directory) return placeholder;
      if (isInsideRoot(root, directory)) return `${placeholder}${root.slice(directory.length)}`;
    }
    if (isInsideRoot(root, evalRoot) || isInsideRoot(evalRoot, root)) {
      // A scope on the eval's temp directory (or above it, such as /tmp) would reach every other case's workspace.
      throw new ZotboxError(
        'ZB_EVAL_SCOPE_OUTSIDE_WORKSPACE',
        `the agent's scope ${root} contains or reaches into the eval's temp directory ${evalRoot}, where every case has its workspace; one case could read or change another's. Fix: scope the agent to \${workspace} (and \${agent_data}), or evaluate it with zotbox run.`,
        { details: { scope: root, evalRoot } },
      );
    }
    if (!allowedScopes.some((allowed) => isInsideRoot(root, allowed))) {
      throw new ZotboxError(
        'ZB_EVAL_SCOPE_NOT_ALLOWED',
        `the agent asks for the ${access} scope ${root}, outside its case workspace and \${agent_data}; an eval grants no more by default, whatever the suite says, so a suite from a pull request cannot reach the host. Fix: if you trust this suite with ${root}, run the eval with --allow-scope ${root} (the report names it); else scope the agent to \${workspace}.`,
        { details: { scope: root, access, flag: '--allow-scope' } },
      );
    }
    return root;
  };
  return { ...permissions, read: permissions.read.map((root) => template(root, 'read')), write: permissions.write.map((root) => template(root, 'write')) };
}
