// Review s37k of issue 21: a Ruby hook program's search path is not read. Python's sys.path changes and Perl's
// `use lib`/@INC are (interpreter-operands.ts codeNames), but Ruby's `$LOAD_PATH.unshift(...)` / `$:.unshift` are
// not, so `require "checker"` after the canonical `$LOAD_PATH.unshift(File.expand_path("../lib", __dir__))` (or a
// plain `$LOAD_PATH.unshift "lib"`) loads lib/checker.rb, which the write tool rewrites; the user's commit runs it.
// Ruby is not installed here: the safe outcome asserted is the refused write.
import test from 'ava';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { agentWrites, project } from '../adversarial-s36i/harness.js';

const CHECKER = 'module Checker; end\n';

for (const [name, setup] of [
  ['File.expand_path from __dir__', '$LOAD_PATH.unshift(File.expand_path("../lib", __dir__))'],
  ['a relative literal', '$LOAD_PATH.unshift "lib"'],
  ['$: with <<', '$: << "lib"'],
] as const)
  test(`the file a Ruby hook program requires through $LOAD_PATH (${name}) is not writable`, async (t) => {
    const ws = project(t, {
      '.git/hooks/pre-commit': '#!/bin/sh\nexec ruby tools/check.rb\n',
      'tools/check.rb': `${setup}\nrequire "checker"\nputs Checker.name\n`,
      'lib/checker.rb': CHECKER,
    });
    t.log(await agentWrites(t, ws, 'lib/checker.rb', 'system("touch /tmp/PWNED-s37k")\nmodule Checker; end\n'));
    t.is(readFileSync(path.join(ws, 'lib/checker.rb'), 'utf8'), CHECKER, "the write tool rewrote the file the hook's Ruby program requires");
  });
