// docs/library.md lists every option (issue 26): each property of the public
// option types, read from their source with the TypeScript parser, is named in
// the page as `name`. An option added without a line in the docs fails here.
import test from 'ava';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { REPO_ROOT, SRC_DIR } from '../fixtures/paths.js';

const OPTION_TYPES: readonly { readonly file: string; readonly name: string }[] = [
  { file: 'host/run/run-plan.ts', name: 'PrepareRunOptions' },
  { file: 'host/run/execute-run.ts', name: 'ExecuteRunOptions' },
  { file: 'host/run/pool.ts', name: 'AgentPoolOptions' },
  { file: 'host/eval/run-eval.ts', name: 'EvalOptions' },
  { file: 'host/providers/model-endpoints.ts', name: 'ModelEndpointsOptions' },
  { file: 'host/providers/adaptive-limit.ts', name: 'AdaptivePolicy' },
];

function propertiesOf(file: string, name: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(path.join(SRC_DIR, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const found = source.statements.find((statement): statement is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(statement) && statement.name.text === name);
  if (found === undefined) throw new Error(`${name} is not an interface in src/${file}`);
  return found.members.filter(ts.isPropertySignature).map((member) => member.name.getText(source));
}

const library = readFileSync(path.join(REPO_ROOT, 'docs', 'library.md'), 'utf8');

for (const { file, name } of OPTION_TYPES) {
  test(`docs/library.md names every property of ${name}`, (t) => {
    const properties = propertiesOf(file, name);
    t.true(properties.length > 0);
    t.deepEqual(
      properties.filter((property) => !library.includes(`\`${property}\``)),
      [],
    );
  });
}
