// What a run's net.allow means on this machine (issue 24 §1): the compiled
// rules, and the refusal of an agent that declares hosts where nothing could
// enforce them. Only the sandbox, whose network namespace has no way out but
// zotbox's proxy, enforces net.allow; an unconfined command reaches the
// network directly, so such a run is refused before consent, never relaxed.
import { ZotboxError } from '../../errors.js';
import { compileNetAllow, type NetRule } from '../../policy/net-allow.js';

/** The rules of a manifest's net.allow (already validated at load); throws when they cannot be enforced. */
export function runNetRules(allow: readonly string[], confinement: 'bubblewrap' | 'unconfined' | 'unavailable', agent: string): readonly NetRule[] {
  if (allow.length > 0 && confinement === 'unconfined') {
    throw new ZotboxError(
      'ZB_CONFINEMENT_NET_UNCONFINED',
      `agent ${agent} declares permissions.net.allow (${allow.join(', ')}), which only the sandbox can enforce (its network namespace reaches nothing but zotbox's proxy), and this run has --confine off, where commands reach every host directly. Fix: run it confined (drop --confine off; \`zotbox doctor\` checks the sandbox), or remove permissions.net.allow.`,
      { details: { agent, hosts: [...allow] } },
    );
  }
  const compiled = compileNetAllow(allow);
  // Never: the manifest was validated with the same grammar at load.
  if (!compiled.ok)
    throw new ZotboxError('ZB_MANIFEST_INVALID', `manifest.json: $.permissions.net.allow[${compiled.index}] ${compiled.reason}.`, { details: { path: `$.permissions.net.allow[${compiled.index}]` } });
  return compiled.rules;
}
