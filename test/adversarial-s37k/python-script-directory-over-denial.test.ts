// Review s37k of issue 21, an OVER-DENIAL: a Python script's directory is sys.path[0], and zotbox protects it whole
// (python-imports.ts searchRootNames: "elsewhere the directory whole"). In a monorepo whose Django app lives in
// backend/, the common pre-commit hook `python backend/manage.py makemigrations --check` makes the whole app a
// control location: every ordinary edit of a view, model or test under backend/ is refused to the agent.
// Safe-and-usable outcome asserted: the edit of an app module is written (manage.py itself may stay protected).
import test from 'ava';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { agentWrites, project } from '../adversarial-s36i/harness.js';

const PRE_COMMIT = `repos:
  - repo: local
    hooks:
      - id: migrations
        name: no missing migrations
        entry: python backend/manage.py makemigrations --check --dry-run
        language: system
        pass_filenames: false
`;

test("an app module beside a pre-commit hook's manage.py stays writable", async (t) => {
  const ws = project(t, {
    '.pre-commit-config.yaml': PRE_COMMIT,
    'backend/manage.py': '#!/usr/bin/env python\nimport os, sys\nfrom django.core.management import execute_from_command_line\nexecute_from_command_line(sys.argv)\n',
    'backend/shop/__init__.py': '',
    'backend/shop/views.py': 'def index(request):\n    return None\n',
  });
  const out = await agentWrites(t, ws, 'backend/shop/views.py', 'def index(request):\n    return "shop"\n');
  t.log(out);
  t.is(readFileSync(path.join(ws, 'backend/shop/views.py'), 'utf8'), 'def index(request):\n    return "shop"\n', "the agent's ordinary edit of a view was refused");
});

for (const [file, content] of [
  ['backend/shop/forms.py', 'class OrderForm:\n    pass\n'],
  // A new module inside the app package. (A new top-level backend/helpers.py is refused since review s38l: any
  // importable name there may be imported in place of one an installed package imports in a try, as requests does chardet.)
  ['backend/shop/helpers.py', 'def slug(text):\n    return text.lower()\n'],
] as const) {
  test(`a new ${file} beside a pre-commit hook's manage.py is written`, async (t) => {
    const ws = project(t, {
      '.pre-commit-config.yaml': PRE_COMMIT,
      'backend/manage.py': '#!/usr/bin/env python\nimport os, sys\nfrom django.core.management import execute_from_command_line\nexecute_from_command_line(sys.argv)\n',
      'backend/shop/__init__.py': '',
    });
    t.log(await agentWrites(t, ws, file, content));
    t.is(readFileSync(path.join(ws, file), 'utf8'), content, `the agent's new ${file} was refused`);
  });
}
