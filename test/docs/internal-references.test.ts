// What users read cites only what they have (issue 13): no message in src/ and no
// page in docs/ or the README points at the development tree's internal documents
// (the gate rules, the zotfile spec's parts and sections, DEVELOPERS.md), and every
// relative link in them resolves to a file inside the repository.
import test from 'ava';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { REPO_ROOT, SRC_DIR } from '../fixtures/paths.js';

/** Citations of documents that are not in the package. */
const INTERNAL = /gate-rules|§|\bspec B\b|\bPart A\b|zotfile-format|shared\/spec|development tree|DEVELOPERS\.md/i;
/** In a message, an issue number too: the user running zotbox has no tracker to look it up in (docs may name issues as history). */
const INTERNAL_IN_MESSAGES = new RegExp(`${INTERNAL.source}|\\bissue \\d+`, 'i');

const DOCS = ['README.md', ...readdirSync(path.join(REPO_ROOT, 'docs')).map((name) => `docs/${name}`)].filter((file) => file.endsWith('.md'));

/** Every string literal and template text in a TypeScript file, with its line: what can reach a user. Comments are not included. */
function stringTexts(file: string): { line: number; text: string }[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: { line: number; text: string }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      found.push({ line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, text: node.text });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test('no string in src/ (messages, denial reasons, help, rule texts) cites an internal document', (t) => {
  const files = readdirSync(SRC_DIR, { recursive: true })
    .map(String)
    .filter((name) => name.endsWith('.ts'));
  t.true(files.length > 50, 'the source tree was found');
  const citing = files.flatMap((name) =>
    stringTexts(path.join(SRC_DIR, name))
      .filter(({ text }) => INTERNAL_IN_MESSAGES.test(text))
      .map(({ line, text }) => `src/${name}:${line}: ${text}`),
  );
  t.deepEqual(citing, []);
});

test('the pattern finds the citations it is for', (t) => {
  for (const cited of ['see gate-rules §7', 'zotfile spec B §7.1', 'decided in Part A', '../shared/spec/zotfile-format.md', 'DEVELOPERS.md of the development tree', 'fixed in issue 13']) {
    t.regex(cited, INTERNAL_IN_MESSAGES, cited);
  }
  for (const plain of ['docs/permissions.md, Protected paths', 'the reference runtime (zot)', 'a spec file', 'open issues']) t.notRegex(plain, INTERNAL_IN_MESSAGES, plain);
});

test('the README and docs/ cite no internal document', (t) => {
  const citing = DOCS.flatMap((file) =>
    readFileSync(path.join(REPO_ROOT, file), 'utf8')
      .split('\n')
      .flatMap((line, index) => (INTERNAL.test(line) ? [`${file}:${index + 1}: ${line}`] : [])),
  );
  t.deepEqual(citing, []);
});

test('every relative link in the README and docs/ names a file inside the repository that exists', (t) => {
  const broken: string[] = [];
  for (const file of DOCS) {
    // Code blocks and code spans hold text such as regular expressions, not links.
    const text = readFileSync(path.join(REPO_ROOT, file), 'utf8')
      .replace(/^```[\s\S]*?^```/gm, '')
      .replace(/`[^`\n]*`/g, '');
    for (const [, target = ''] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target) || target.startsWith('#')) continue;
      const resolved = path.resolve(path.dirname(path.join(REPO_ROOT, file)), target.split('#')[0]!);
      const inside = resolved.startsWith(REPO_ROOT);
      if (!inside || !existsSync(resolved)) broken.push(`${file}: ${target}${inside ? '' : ' (outside the repository)'}`);
    }
  }
  t.deepEqual(broken, []);
});
