// New names the user's tools would read as an option or as shell code: the write tool is refused before writing, and
// what a command leaves is removed after it (confined and unconfined), while the user's names and tools' data stay.
import test from 'ava';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { refuseUnsafeNewName, setAsideNewUnsafeNames } from '../../../../src/host/executors/confine/agent-name-checks.js';
import type { GitInventory } from '../../../../src/host/executors/confine/git-inventory.js';
import { sandboxWorld } from '../../../fixtures/sandbox-world.js';
import { tempDir } from '../../../fixtures/temp.js';

const SITE = '.venv/lib/python3.12/site-packages';

function seed(ws: string): void {
  mkdirSync(path.join(ws, 'src'), { recursive: true });
  writeFileSync(path.join(ws, 'src', 'app.js'), '1;\n');
}

function workspace(t: Parameters<typeof tempDir>[0]): string {
  const ws = path.join(realpathSync(tempDir(t, 'zb-names-')), 'ws');
  seed(ws);
  return ws;
}

const writeRefused = test.macro({
  exec(t, file: string) {
    const ws = workspace(t);
    t.throws(() => refuseUnsafeNewName(path.join(ws, file), [ws]), { code: 'ZB_POLICY_PATH_NAME_UNSAFE' } as never);
  },
  title: (_title, file: string) => `the write tool may not create ${JSON.stringify(file)}`,
});

const writeAccepted = test.macro({
  exec(t, file: string) {
    const ws = workspace(t);
    t.notThrows(() => refuseUnsafeNewName(path.join(ws, file), [ws]));
  },
  title: (_title, file: string) => `the write tool may create ${JSON.stringify(file)}`,
});

for (const file of [
  '--config=p.cjs',
  'src/$(sh p.sh).js',
  'a --config=p.cjs',
  '{-,-}-config=p.cjs',
  'a -x/x.js',
  'src/x;y/z.js',
  'src/`id`.js',
  '@o.ts',
  'node_modules/$(sh p.sh).js',
  'node_modules/-x/index.js',
  'docs/site-packages/a;b.py',
])
  test(writeRefused, file);
for (const file of [
  'src/other.js',
  'app/(shop)/[id]/page.tsx',
  'src/routes/+page.svelte',
  'node_modules/x y/index.js',
  'notes/a=b,c:d.md',
  'docs/Release Notes.md',
  'app/routes/concerts.$city.tsx',
  'src/@types/x.d.ts',
  'packages/@acme/x/index.js',
  'node_modules/@scope/x/index.js',
  '{{cookiecutter.project_slug}}/README.md',
])
  test(writeAccepted, file);

test('the write tool may write into a directory the user named with a space', (t) => {
  const ws = workspace(t);
  mkdirSync(path.join(ws, 'my docs'));
  t.notThrows(() => refuseUnsafeNewName(path.join(ws, 'my docs', 'notes.md'), [ws]));
});

test('the write tool may rewrite a file the user named with a leading dash', (t) => {
  const ws = workspace(t);
  writeFileSync(path.join(ws, '-old.txt'), 'x');
  t.notThrows(() => refuseUnsafeNewName(path.join(ws, '-old.txt'), [ws]));
});

for (const confined of [true, false]) {
  const name = confined ? 'confined' : 'unconfined';
  for (const [script, made] of [
    ['touch -- --config=p.cjs', '--config=p.cjs'],
    ["mkdir 'a -rf'", 'a -rf'],
    ["mv src 'x;y'", 'x;y'],
    ['touch @args.txt', '@args.txt'],
    ["mkdir -p node_modules && touch 'node_modules/$(sh p.sh).js'", 'node_modules/$(sh p.sh).js'],
    ["mkdir -p deep/er && touch 'deep/er/$(sh p.sh).js'", 'deep/er/$(sh p.sh).js'],
  ] as const) {
    test(`${name}: a command's ${JSON.stringify(made)} is removed and the run stops`, async (t) => {
      const world = sandboxWorld(t, ({ ws }) => seed(ws));
      await t.throwsAsync(world.run(script, { confined }), { code: 'ZB_CONFINEMENT_NAME_UNSAFE' });
      t.false(existsSync(path.join(world.ws, made)));
      // The plain directories on the way (`deep/er`) are ordinary work and stay; `.` stands for the workspace.
      t.true(existsSync(path.join(world.ws, path.dirname(made))));
    });
  }

  test(`${name}: names the user had stay, and a command may write into them`, async (t) => {
    const world = sandboxWorld(t, ({ ws }) => {
      seed(ws);
      mkdirSync(path.join(ws, 'my docs'));
      writeFileSync(path.join(ws, '-old.txt'), 'x');
    });
    await world.run("touch 'my docs/notes.md' && echo y > ./-old.txt", { confined });
    t.true(existsSync(path.join(world.ws, 'my docs', 'notes.md')));
    t.is(readFileSync(path.join(world.ws, '-old.txt'), 'utf8'), 'y\n');
  });

  test(`${name}: routes and an npm-installed package with an odd name are ordinary work`, async (t) => {
    const world = sandboxWorld(t, ({ ws }) => seed(ws));
    await world.run(
      "mkdir -p 'app/(shop)/[id]' 'node_modules/x y/bin' 'cypress/screenshots' && touch 'app/(shop)/[id]/page.tsx' 'node_modules/x y/index.js' 'cypress/screenshots/login -- logs in (failed).png'",
      { confined },
    );
    t.true(existsSync(path.join(world.ws, 'app/(shop)/[id]/page.tsx')));
    t.true(existsSync(path.join(world.ws, 'cypress/screenshots/login -- logs in (failed).png')));
    t.true(existsSync(path.join(world.ws, 'node_modules/x y/bin')));
  });

  test(`${name}: a project venv's installed packages keep their authors' names`, async (t) => {
    // The venv's site-packages is the agent's only when a scope names it (Python runs what is there).
    const world = sandboxWorld(t, ({ ws }) => {
      seed(ws);
      mkdirSync(path.join(ws, SITE), { recursive: true });
    });
    const layout = { ...world.layout, writeRoots: [...world.layout.writeRoots, path.join(world.ws, SITE)] };
    await world.run(`mkdir -p ${SITE}/setuptools && touch '${SITE}/setuptools/script (dev).tmpl'`, { confined, layout });
    t.true(existsSync(path.join(world.ws, SITE, 'setuptools/script (dev).tmpl')));
  });
}

test('a new @ name is set aside only at a top; one the user had stays when a .git appears beside it', (t) => {
  const ws = workspace(t);
  for (const directory of ['sub', 'src/@types']) mkdirSync(path.join(ws, directory), { recursive: true });
  writeFileSync(path.join(ws, 'sub', '@notes.txt'), "the user's");
  writeFileSync(path.join(ws, '@args.txt'), '--outFile x');
  const inventory = (unsafeNames: string[]) => ({ unsafeNames, gitDirectories: new Map() }) as unknown as GitInventory;
  const before = inventory([path.join(ws, 'sub', '@notes.txt')]);
  // The command made sub/.git (sub is now a repository's top), @args.txt at the write root and src/@types deeper.
  mkdirSync(path.join(ws, 'sub', '.git'));
  const after = inventory([path.join(ws, 'sub', '@notes.txt'), path.join(ws, '@args.txt'), path.join(ws, 'src', '@types')]);
  t.deepEqual(setAsideNewUnsafeNames(before, after, [ws], []), [
    {
      path: path.join(ws, '@args.txt'),
      reason: 'it starts with "@" at the top of the repository, so tsc, gcc, javac or pytest handed the name reads options from it',
      movedTo: path.join(ws, 'zotbox-renamed-1'),
    },
  ]);
  t.is(readFileSync(path.join(ws, 'zotbox-renamed-1'), 'utf8'), '--outFile x');
  t.true(existsSync(path.join(ws, 'sub', '@notes.txt')));
  t.true(existsSync(path.join(ws, 'src', '@types')));
});

test("a user's directory renamed to an unsafe name is moved aside with its files, never to a name a tool file protects", (t) => {
  const ws = workspace(t);
  // The command renamed the user's notes to "Tom's notes"; zotbox-renamed-1 is free but a hook runs a file in it.
  mkdirSync(path.join(ws, "Tom's notes"));
  writeFileSync(path.join(ws, "Tom's notes", 'plan.md'), 'the user plan\n');
  const inventory = (unsafeNames: string[]) => ({ unsafeNames, gitDirectories: new Map() }) as unknown as GitInventory;
  const moved = setAsideNewUnsafeNames(inventory([]), inventory([path.join(ws, "Tom's notes")]), [ws], [path.join(ws, 'zotbox-renamed-1', 'run.sh')]);
  t.deepEqual(
    moved.map((entry) => entry.movedTo),
    [path.join(ws, 'zotbox-renamed-2')],
  );
  t.is(readFileSync(path.join(ws, 'zotbox-renamed-2', 'plan.md'), 'utf8'), 'the user plan\n');
  t.false(existsSync(path.join(ws, "Tom's notes")));
  t.false(existsSync(path.join(ws, 'zotbox-renamed-1')));
});
