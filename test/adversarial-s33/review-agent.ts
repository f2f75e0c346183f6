// The agent the adv27b repros run: a name, a one-line AGENT.md and the permissions
// under test, nothing else.
import { writeFileSync } from 'node:fs';
import path from 'node:path';

export function writeReviewAgent(agent: string, permissions: Record<string, unknown>): void {
  writeFileSync(path.join(agent, 'AGENT.md'), '# a\n');
  const manifest = {
    zotfile: 1,
    name: 'adv27b',
    version: '1.0.0',
    description: 'x',
    license: 'MIT',
    runtime: { min_zot: '0.2.0' },
    model: { requires: ['tools'], min_context: 32000 },
    permissions,
    entry: { greeting: 'hi', default_prompt: 'hi' },
  };
  writeFileSync(path.join(agent, 'manifest.json'), JSON.stringify(manifest));
}
