// Review s31, tool-file references (briefed without the feature's tests). `source_up NAME` and
// `source_up_if_exists NAME` are read as `../NAME` (tool-file-references.ts), but direnv's stdlib
// (`direnv stdlib`: _source_up runs `cd .. && find_up "$file"`) sources the first NAME in ANY
// ancestor directory. With the .envrc two levels inside a write scope and no a/.envrc.shared,
// a command plants <scope>/.envrc.shared, and the user's shell runs it on entering a/b.
// Expected by hand: every ancestor's NAME inside the scopes is protected (or the line is
// unresolved, which refuses every writer).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { toolFileReferences } from '../../src/host/executors/confine/tool-file-references.js';

for (const directive of ['source_up', 'source_up_if_exists']) {
  test(`${directive} NAME protects NAME in every ancestor inside the scope, as direnv's find_up reads it`, (t) => {
    const scope = mkdtempSync(path.join(os.tmpdir(), 'zotbox-s31-envrc-'));
    t.teardown(() => rmSync(scope, { recursive: true, force: true }));
    mkdirSync(path.join(scope, 'a', 'b'), { recursive: true });
    const envrc = path.join(scope, 'a', 'b', '.envrc');
    writeFileSync(envrc, `${directive} .envrc.shared\n`);
    const found = toolFileReferences([envrc], [scope]);
    const paths = found.locations.map((location) => location.path);
    t.log(paths, found.unresolved);
    t.true(paths.includes(path.join(scope, 'a', '.envrc.shared')), 'the parent one (the control)');
    t.true(found.unresolved.length > 0 || paths.includes(path.join(scope, '.envrc.shared')), 'the grandparent one, which direnv sources when the parent has none');
  });
}
