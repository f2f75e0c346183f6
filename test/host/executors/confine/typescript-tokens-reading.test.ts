// A TypeScript program is read with TypeScript's tokens where they differ from JavaScript's (javascript-tokens.ts):
// after `?` a type may end (JSDoc's `number?`) and a division follow, where JavaScript's conditional takes a regular
// expression. The hook runs the program; what zotbox cannot read is written out by hand.
import test from 'ava';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { toolFileReferences } from '../../../../src/host/executors/confine/tool-file-references.js';
import { tempDir } from '../../../fixtures/temp.js';

const HEAD = 'const k = "constr" + "uctor";\nfunction run(f: any) {}\nlet x: any = 1;\n';

function hookUnresolved(t: Parameters<typeof tempDir>[0], file: string, program: string): readonly string[] {
  const top = realpathSync(tempDir(t, 'zb-ts-tokens-'));
  for (const [name, content] of Object.entries({ '.githooks/pre-commit': `#!/bin/sh\nexec node ${file}\n`, [file]: program })) {
    mkdirSync(path.dirname(path.join(top, name)), { recursive: true });
    writeFileSync(path.join(top, name), content);
  }
  return toolFileReferences([], [top], { environment: { HOME: '/nonexistent-home' }, hookDirectories: [{ directory: path.join(top, '.githooks'), top }] }).unresolved;
}

test('a .ts program: a "/" after "?" may follow a type (x as number? / …), so the program refuses', (t) => {
  const unresolved = hookUnresolved(t, 'tools/check.ts', `${HEAD}const q = x as number? / run([].map[k]) / 1;\n`);
  t.true(
    unresolved.some((line) => line.includes('check.ts') && line.includes('"?"')),
    JSON.stringify(unresolved),
  );
});

test('a .js program: a "/" after "?" starts a regular expression (a conditional), which reads', (t) => {
  t.deepEqual(hookUnresolved(t, 'tools/check.js', 'const s = process.argv[2] ?? "";\nconst m = s ? /^a/.test(s) : false;\nconsole.log(m);\n'), []);
});
