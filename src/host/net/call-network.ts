// net.allow for a run's bash calls (issue 24 §1): a fresh proxy per call, to
// which each confined command's network carrier is attached; closing it ends
// every connection and gives the attempts it saw (run-gate.ts reports them as
// net.connect events).
import type { NetRule } from '../../policy/net-allow.js';
import type { CallNetwork } from '../executors/confine/command-isolation.js';
import { serveCarrier } from './carrier.js';
import { createNetProxy, type NetResolver } from './net-proxy.js';

/** The network of a run's calls, or undefined when net.allow is empty (commands then have no network at all). */
export function createCallNetwork(rules: readonly NetRule[], resolver?: NetResolver): CallNetwork | undefined {
  if (rules.length === 0) return undefined;
  return {
    open: () => {
      const proxy = createNetProxy({ rules, ...(resolver === undefined ? {} : { resolver }) });
      return {
        attach: (carrier) => serveCarrier(carrier, proxy),
        close: () => {
          proxy.close();
          return proxy.connections();
        },
      };
    },
  };
}
