// For programs told to follow symbolic links inside directory trees (cp -rL,
// tar -h, grep -R, rg -L, find -L, du -L): every link the program would follow
// is decided as the program would use it, after resolution (issue 10 item 4).
// The walk itself never follows a link: it decides the link, then walks the
// directory the link resolves to as its own tree. Bounded; never throws.
import { lstatSync, readdirSync } from 'node:fs';
import { decidePathAccess, type PathTool } from '../path-decision.js';
import type { CompiledScopes } from '../scopes.js';
import { deny as no, type Check } from '../shell-check.js';

/** Entries examined at most for one argument: beyond this the command is denied rather than half-checked. */
export const MAX_WALKED_ENTRIES = 20_000;

export function checkLinksInTree(root: string, tool: PathTool, scopes: CompiledScopes): Check<null> {
  const pending = [root];
  const seen = new Set<string>();
  let examined = 0;
  while (pending.length > 0) {
    const directory = pending.pop()!;
    if (seen.has(directory)) continue;
    seen.add(directory);
    let names: string[];
    try {
      if (!lstatSync(directory).isDirectory()) continue;
      names = readdirSync(directory);
    } catch {
      // Unreadable here is unreadable to the program too; it reports its own error.
      continue;
    }
    for (const name of names) {
      examined += 1;
      if (examined > MAX_WALKED_ENTRIES) {
        return no('ZB_POLICY_SHELL_ARGUMENT', `more than ${MAX_WALKED_ENTRIES} entries to check under ${root}; follow links in a smaller tree, or copy without following them.`);
      }
      const entry = `${directory}/${name}`;
      let stats;
      try {
        stats = lstatSync(entry);
      } catch {
        continue;
      }
      if (stats.isDirectory()) {
        pending.push(entry);
        continue;
      }
      if (!stats.isSymbolicLink()) continue;
      const decision = decidePathAccess(tool, entry, scopes);
      if (!decision.allow) return no(decision.code, `the link ${entry}: ${decision.reason}`);
      pending.push(decision.canonicalPath);
    }
  }
  return { ok: true, value: null };
}
