// A suite as the report records it: the agent's identity and digests, the
// permissions consented to (expanded, with ${workspace} for each case's own) and
// how consent was given, the model, and how many cases it holds.
import { ZotboxError } from '../../errors.js';
import type { PlannedSuite } from './eval-plan.js';
import type { SuiteSummary } from './eval-report.js';
import type { SuiteConsent } from './suite-consent.js';

export function suiteSummary(suite: PlannedSuite, consent: SuiteConsent, modelOverride: string | undefined): SuiteSummary {
  const { loaded, agent } = suite;
  const manifest = agent.layout.manifest;
  const consented = consent.consented();
  // Every suite is asked before the first case starts (run-eval.ts), selected cases or not.
  if (consented === undefined) throw new ZotboxError('ZB_INTERNAL_BUG', `the eval reached its report without consent for suite ${loaded.name}`);
  return {
    name: loaded.name,
    file: loaded.file,
    agent: { reference: loaded.suite.agent, name: manifest.name, version: manifest.version, content_digest: agent.image.contentDigest, artifact_digest: agent.image.artifactDigest ?? null },
    permissions: {
      read: [...consented.permissions.read],
      write: [...consented.permissions.write],
      bash: { mode: consented.permissions.bash.mode, allow: [...consented.permissions.bash.allow] },
      confinement: consented.permissions.confinement,
    },
    consent: consented.outcome,
    model: modelOverride ?? loaded.suite.model ?? (loaded.suite.replay !== undefined ? 'replay' : 'default'),
    cases: loaded.suite.cases.length,
  };
}
