// Review s76y (by reading R's and Octave's rules; neither is installed here, so the user's tool is not run): a
// startup file that changes R's or Octave's working directory, or R's `source(chdir = TRUE)` spelled another way.
// startup-file-sources.ts reads each relative name from where the tool starts and reads no `setwd`/`cd`; its COMPUTED
// rule for R refuses `chdir = TRUE|T` only. R matches a partial argument name (`ch = TRUE` is `chdir`, source() has no
// `...`) and takes any true value (`chdir = 1`); `setwd(file.path("my-tools", "x"))` then `source("lint.R")` loads
// my-tools/x/lint.R; Octave's `cd(fullfile("my-tools", "x"))` then the bare name `lint` runs my-tools/x/lint.m. zotbox
// protects lint.R / lint.m at the top only (the words reader's join on named folders misses a name built from
// pieces) and nothing is unresolved. SAFE outcome asserted by hand: the confined call rewriting the file R or Octave
// loads is stopped and the file is put back (its text is the user's after the run). Control: `chdir = TRUE`: refused.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, project } from '../adversarial-s36i/harness.js';

const ORIGINAL = 'x <- 1\n';

// [startup file, its text, the file the tool loads]
const CASES = [
  ['.Rprofile', 'setwd(file.path("my-tools", "x"))\nsource("lint.R")\n', 'my-tools/x/lint.R'],
  ['.Rprofile', 'source("my-tools/a.R", ch = TRUE)\n', 'my-tools/lint.R'],
  ['.Rprofile', 'source("my-tools/a.R", chdir = 1)\n', 'my-tools/lint.R'],
  ['.octaverc', 'cd(fullfile("my-tools", "x"))\nlint\n', 'my-tools/x/lint.m'],
] as const;

async function agentRewrites(t: import('ava').ExecutionContext, startup: string, text: string, loaded: string): Promise<string> {
  const ws = project(t, {
    'src.txt': '1\n',
    'one.sh': `printf 'system("touch PWNED")\\n' > ${loaded}\n`,
    [startup]: text,
    'my-tools/a.R': 'source("lint.R")\n',
    'my-tools/lint.R': ORIGINAL,
    'my-tools/x/lint.R': ORIGINAL,
    'my-tools/x/lint.m': ORIGINAL,
    'lint.R': ORIGINAL,
    'lint.m': ORIGINAL,
  });
  t.log('run:', (await agentWrites(t, ws, 'x1.txt', 'x\n', 'sh one.sh')).slice(-1500));
  return readFileSync(path.join(ws, loaded), 'utf8');
}

for (const [startup, text, loaded] of CASES)
  test(`${startup} ${JSON.stringify(text)}: the call rewriting ${loaded} is stopped and it is put back`, async (t) => {
    t.is(await agentRewrites(t, startup, text, loaded), ORIGINAL, `${loaded}, which the user's tool loads, holds the agent's code`);
  });

test('control: .Rprofile source("my-tools/a.R", chdir = TRUE): refused', async (t) => {
  t.is(await agentRewrites(t, '.Rprofile', 'source("my-tools/a.R", chdir = TRUE)\n', 'my-tools/lint.R'), ORIGINAL);
});
