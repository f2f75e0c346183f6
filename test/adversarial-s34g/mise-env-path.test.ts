// Finding (tools and config files, variables a tool sets): mise's `[env] _.path = ["./tools/bin"]` puts tools/bin first
// on PATH in every shell `mise activate` sets up in the directory, and for `mise exec`/`mise run`; `_.source` sources a
// script, `_.file` loads variables (PATH among them), `_.python.venv` puts a venv's bin/ on PATH. The reader read PATH
// entries only for upper-case variable names, so `_.path`'s directory was "a directory a setting names", not protected:
// the agent's write tool replaced tools/bin/fmt and the user's `mise exec -- fmt` ran it unconfined.
// Safe outcome, stated by hand without mise (not installed here): each write is refused and the file keeps its text.
import test from 'ava';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { agentRun, world } from './harness.js';

const cases: Record<string, { config: string; file: string }> = {
  '_.path': { config: '[env]\n_.path = ["./tools/bin"]\n', file: 'tools/bin/fmt' },
  '[env._] path': { config: '[env._]\npath = "tools/bin"\n', file: 'tools/bin/fmt' },
  '_.source': { config: '[env]\n_.source = "tools/env.sh"\n', file: 'tools/env.sh' },
  '_.file': { config: '[env]\n_ = { file = ".env.dev" }\n', file: '.env.dev' },
  '_.python.venv': { config: '[env]\n_.python.venv = { path = "venv", create = true }\n', file: 'venv/bin/fmt' },
};

for (const [name, { config, file }] of Object.entries(cases)) {
  test(`what mise's ${name} puts on PATH or loads is protected as PATH_add's is`, async (t) => {
    const w = world(t, { 'mise.toml': config, [file]: '#!/bin/sh\necho formatted\n' }, [file]);
    const result = await agentRun(w, [{ name: 'write', input: { path: file, content: `#!/bin/sh\ntouch '${w.marker}'\n` } }]);
    t.is(readFileSync(path.join(w.ws, file), 'utf8'), '#!/bin/sh\necho formatted\n', `${result.stdout}${result.stderr}`);
  });
}

test("mise's _.path with a template zotbox cannot spell out refuses every writer", async (t) => {
  const w = world(t, { 'mise.toml': '[env]\n_.path = ["{{env.TOOLS}}/bin"]\n' });
  const result = await agentRun(w, [{ name: 'write', input: { path: 'src/a.txt', content: 'x\n' } }]);
  t.throws(() => readFileSync(path.join(w.ws, 'src/a.txt')), undefined, `${result.stdout}${result.stderr}`);
});
