// ESLint for zotbox: typescript-eslint's type-aware strict rules on src/, test/,
// bench/ and scripts/ (issue 11, item 8). It owns bug-finding rules only; layout
// is Biome's (biome.json). Every rule turned off or down says why on its line.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

const notLinted = { ignores: ['dist/', 'node_modules/', 'examples/', 'bin/', '*.js'] };

const zotboxRules = {
  languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  // A disable comment that no longer suppresses anything fails the lint, so none go stale.
  linterOptions: { reportUnusedDisableDirectives: 'error' },
  rules: {
    // Off: with noUncheckedIndexedAccess, `xs[i]!` after a bounds check is the house idiom; a runtime re-check would be dead code.
    '@typescript-eslint/no-non-null-assertion': 'off',
    // Down: numbers and booleans print as written ("8 MiB", "true"); objects, nullish and any (the real bugs: "[object Object]", "undefined") stay errors.
    '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true, allowRegExp: true, allowAny: false, allowNullish: false, allowNever: false }],
    // Off: `return voidCall()` as an early exit is style, not a bug; promises that nobody awaits are no-floating-promises' job.
    '@typescript-eslint/no-confusing-void-expression': 'off',
    // Off: `async` without `await` is how an implementation of a Promise-returning port turns a throw into a rejection; dropping it would make throws synchronous. Forgotten awaits are caught by no-floating-promises and no-misused-promises.
    '@typescript-eslint/require-await': 'off',
    // Off: the code matches control characters on purpose (terminal text, tar and entry names); each such regex is the point of its function.
    'no-control-regex': 'off',
    // Down: a leading underscore marks a parameter a signature requires but this body does not use, or a property dropped by a rest destructure.
    '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true }],
    // Added: a switch over a closed union must name every member (closed world), or say `default` on purpose.
    '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
  },
};

export default defineConfig(notLinted, js.configs.recommended, tseslint.configs.strictTypeChecked, zotboxRules);
