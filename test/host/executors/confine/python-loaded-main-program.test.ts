// A Python module a hook's program loads names the MAIN program's place through spellings of its own: each is
// refused in the module (stated by hand), and the guard `if __name__ == "__main__":` is not.
import test from 'ava';
import { unresolvedOf } from '../../../adversarial-s09f/harness.js';

const MAIN = 'a module another program loads names the program the interpreter was started on';

/** The unresolved lines of util.py's line `line` (0-based; every line where none is given) where the hook runs tools/check.py, which imports it. */
function moduleReasons(t: Parameters<typeof unresolvedOf>[0], util: string, line?: number): string[] {
  const reasons = unresolvedOf(t, { '.githooks/pre-commit': '#!/bin/sh\nexec python3 tools/check.py\n', 'tools/check.py': 'from lib import util\n', 'tools/lib/util.py': util });
  return reasons.filter((reason) => reason.includes(line === undefined ? '/tools/lib/util.py line ' : `/tools/lib/util.py line ${line + 1} (`) && reason.includes(`): ${MAIN}`));
}

const SPELLINGS = [
  'import __main__ as m\nHERE = m.__file__\n',
  'import sys\nHERE = sys.modules["__main__"].__spec__.origin\n',
  'import sys\nHERE = sys.orig_argv[1]\n',
  'import inspect\nHERE = inspect.stack()[-1].filename\n',
  'import sys\nHERE = sys._getframe().f_back.f_code.co_filename\n',
  'import traceback\nHERE = traceback.extract_stack()[0].filename\n',
  'import sys\nHERE = getattr(sys.modules["x"], "__file__")\n',
];

for (const util of SPELLINGS)
  test(`a module names the main program's place: ${JSON.stringify(util)}`, (t) => {
    t.is(moduleReasons(t, util, 1).length, 1);
  });

test('an alias of the stack call is refused where it is taken: `from inspect import stack as s`', (t) => {
  t.is(moduleReasons(t, 'from inspect import stack as s\nHERE = s()[-1].filename\n', 0).length, 1);
});

test('the __main__ guard and the module`s own __file__ name no other program', (t) => {
  t.deepEqual(moduleReasons(t, 'import os\nHERE = os.path.dirname(__file__)\nif __name__ == "__main__":\n    print(HERE)\n'), []);
  t.deepEqual(moduleReasons(t, 'import os\nHERE = os.path.dirname(__file__)\nif "__main__" != __name__:\n    print(HERE)\n'), []);
});
