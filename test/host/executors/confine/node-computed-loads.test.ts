// A JavaScript program's loads whose name it computes (node-computed-loads.ts): the folder a name starts in, or nothing
// known at all. The expected folders and calls are written out by hand.
import test from 'ava';
import { nodeComputedLoads } from '../../../../src/host/executors/confine/node-computed-loads.js';

const folders = (code: string) => nodeComputedLoads(code).folders.map((each) => each.folder);
const unknown = (code: string) => nodeComputedLoads(code).unknown.map((each) => each.call);

test("a name written out, or joined to the file's own folder from literals, is no computed load", (t) => {
  for (const code of [
    'require("./lint.js")',
    "require('../x')",
    'require(`./a.js`)',
    'require(path.join(__dirname, "lint.js"))',
    'import("./m.mjs")',
    'require("node:fs")',
    'require.resolve("./x")',
    'require.resolve("@acme/utils")',
    'require(`@scope/pkg`)',
    'const here = __dirname;\nrequire(here + "/plug.js");',
    'fork(new URL(import.meta.resolve("@acme/utils/bin.js")))',
    'fork(require.resolve("@acme/x/bin.js"))',
    'import(pathToFileURL(path.join(__dirname, "x.mjs")))',
  ])
    t.deepEqual(nodeComputedLoads(code), { folders: [], unknown: [] }, code);
});

test('a computed name that starts in a folder written out reaches that folder', (t) => {
  t.deepEqual(folders('const r = require(`./rules/${name}.js`);'), ['./rules/']);
  t.deepEqual(folders('require("./" + String.fromCharCode(108) + "int.js")'), ['./']);
  t.deepEqual(folders('require(`./${"l"}int.js`)'), ['./']);
  t.deepEqual(folders('require(__dirname + "/rules/" + name)'), ['./rules/']);
  t.deepEqual(folders('require(path.join(__dirname, "rules", name))'), ['./rules/']);
  t.deepEqual(folders('import(`../plugins/${p}`)'), ['../plugins/']);
  t.deepEqual(folders('const here = __dirname;\nrequire(here + "/rules/" + name);'), ['./rules/']);
  t.deepEqual(folders('require(path.dirname(__filename) + "/rules/" + name)'), ['./rules/']);
});

test('a name computed from its start is unknown: a variable, process.cwd(), a call, a list joined, a package prefix', (t) => {
  for (const code of [
    'require(name)',
    'require(process.cwd() + "/tools/lint.js")',
    'require(["./l", "int.js"].join(""))',
    'require("sj.tnil/.".split("").reverse().join(""))',
    'require(path.join(path.dirname(frames.pop()[1]), "lint.js"))',
    'r.main.require(x)',
    'module.require(`${root}/x.js`)',
    'await import(spec)',
    'require("lodash/" + x)',
    'require("/" + x)',
    'let here = __dirname;\nhere = process.cwd();\nrequire(here + "/rules/" + name);',
    'const root = path.resolve(__dirname, "..");\nrequire(root + "/x/" + name);',
    'let p = "./a.js";\np = process.argv[2];\nrequire(p);',
  ])
    t.is(unknown(code).length, 1, code);
});

test('a word that only ends in require is no load; a computed call spelled in a string or a comment counts (the tokens may be read wrong)', (t) => {
  t.deepEqual(nodeComputedLoads('myrequire(x); $require(y); console.log("we require node 18")'), { folders: [], unknown: [] });
  t.is(unknown('console.log("require(x)");').length, 1);
  t.is(unknown('const help = `run eval(x) to see`;').length, 1);
});

test('what the tokens hide, the raw text shows: a division after {} or ++ read as a regex, <!--, a quote in a regex after )', (t) => {
  for (const code of [
    'const k = {} / 1; require(name); const j = 2 / 1;',
    'let i = 0; const k = i++ / 2; require(name); const j = 2 / 1;',
    '<!-- ` (old markup)\nrequire(name);\n// `',
    "if (x) /'/.test(x) || require(name);",
  ])
    t.true(unknown(code).length > 0, code);
  // A leading folder only in a concatenation: the comma operator, && and ?: put another value in front.
  for (const code of ['require(("./rules/", other));', 'require("./rules/" && other);', 'require(c ? "./rules/" + n : other);']) t.true(unknown(code).length > 0, code);
  // Escapes: in a string they are text (the tokens read the raw file), in a name they are refused.
  t.true(unknown('\\u0072equire(name);').length > 0);
  t.true(unknown('const p = x.replace(/\\\\/g, "/"); require(name);').length > 0);
});

test('loaders and runners spelled past the call list: a loader name as a string, eval kept as a value, a constructor, an import renamed', (t) => {
  for (const code of [
    'module["require"](file);',
    'Reflect.get(module, "require").call(module, file);',
    'const Make = (() => {}).constructor;\nMake(src)();',
    'Reflect.construct(Function, [src])();',
    '(0, eval)(src);',
    'eval.call(null, src);',
    'import { createRequire as cr } from "node:module";',
    'import { fork as launch } from "node:child_process";',
  ])
    t.true(unknown(code).length > 0, code);
});

test('other calls that load or run a file by a computed name: an alias of require or createRequire, fork, a Worker', (t) => {
  t.deepEqual(folders('const r = require;\nr("./rules/" + name);').includes('./rules/'), true);
  t.deepEqual(folders('const req = createRequire(import.meta.url);\nreq(`./rules/${n}`);'), ['./rules/']);
  t.deepEqual(folders('require("node:module").createRequire(__filename)("./rules/" + n);'), ['./rules/']);
  t.deepEqual(folders('require("node:child_process").fork("./workers/" + n);'), ['./workers/']);
  t.is(unknown('new (require("node:worker_threads").Worker)(file);').length, 1);
  t.is(unknown('fork(file)').length, 1);
});

test('code run by a name or text the program computes, outside those calls, is unknown', (t) => {
  for (const code of [
    'Reflect.apply(require, null, [file]);',
    'require.call(null, file);',
    'module.constructor._load(file, module);',
    'require("node:module")._load(file);',
    'require.extensions[".txt"] = f;',
    'eval(fs.readFileSync(file, "utf8"));',
    'new Function(src)();',
    'require("node:vm").runInThisContext(src);',
    'process.dlopen(module, file);',
  ])
    t.true(unknown(code).length > 0, code);
});

test('ordinary node stays readable: typeof require, an ESM require made by createRequire, a key named require, words in comments and strings', (t) => {
  for (const code of [
    'if (typeof require === "function") {}',
    'const require = createRequire(import.meta.url);\nconst x = require("./x.js");',
    'module.exports = { require: ["ts-node/register"] };',
    '// we require node 18; eval is evil\nconsole.log("require it, then evaluate it");',
    'for (const p of ["./plugins/a.js", "./plugins/b.js"]) require(p);',
    'const config = "./config.js";\nrequire(config);',
    'const extensions = [".js"];',
  ])
    t.deepEqual(nodeComputedLoads(code), { folders: [], unknown: [] }, code);
});

test('a name counts as one literal only where it is bound once in the whole file: a parameter, a catch, a loop without a declaration, a destructuring, a compound assignment rebind it', (t) => {
  for (const code of [
    'const file = "./rules/base.js";\nnames.forEach((file) => require(file));',
    'const file = "./rules/base.js";\nnames.forEach(file => require(file));',
    'const file = "./a.js";\ntry { x(); } catch (file) { require(file); }',
    'let file = "./a.js";\nfor (file of names) require(file);',
    'let file = "./a.js";\n({ file } = config);\nrequire(file);',
    'let file = "./a.js";\nfile ??= other;\nrequire(file);',
    '// const p = "./a.js"\nlet p = x;\nrequire(p);',
    'const here = __dirname;\nnames.forEach((here) => require(here + "/x/" + n));',
    'const file = "./rules/base.js";\nclass L { load(file) { require(file); } }',
  ])
    t.true(unknown(code).length > 0, code);
});

test('what the tokenizer sees: a regex with a quote or /*, a load inside a template, a comment between a name and its (', (t) => {
  for (const code of ["const q = /'/;\nrequire(name);", 'const r = /\\s\\/*$/;\nrequire(name);\n// */', 'const s = `${require(name)}`;', 'require/**/(name);']) t.true(unknown(code).length > 0, code);
  // A word in a regex or a template's text is no call.
  t.deepEqual(nodeComputedLoads('const re = /require\\(/;\nconst help = `run it to see`;'), { folders: [], unknown: [] });
});

test('loaders the call list does not name: a renamed destructuring, bind, _compile, an async function, globalThis.eval, module.register', (t) => {
  for (const code of [
    'const { Worker: W } = require("node:worker_threads");\nnew W(file);',
    'const { fork: launch } = require("node:child_process");\nlaunch(file);',
    'const load = module.require.bind(module);\nload(file);',
    'new Module(file)._compile(src, file);',
    'new AsyncFunction(src)();',
    'globalThis.eval(src);',
    'module.register(pathToFileURL(file));',
    'require("node:module").register(pathToFileURL(file));',
  ])
    t.true(unknown(code).length > 0, code);
});

test('more ways to run code: runMain, the inspector, a loader or global by a computed key, NODE_OPTIONS, execArgv, module.paths', (t) => {
  for (const code of [
    'require("node:module").runMain(file);',
    'const k = ["req", "uire"].join("");\nmodule[k](file);',
    'globalThis[k](src);',
    'const inspector = require("node:inspector");',
    'execSync("node tools/lint.js", { env: { NODE_OPTIONS: "--require " + file } });',
    'fork("./w.js", { execArgv: ["--require", file] });',
    'module.paths.unshift(dir);\nrequire("local-check");',
  ])
    t.true(unknown(code).length > 0, code);
});

test("a class's own constructor, a constructor's name and a comment saying eval are ordinary", (t) => {
  for (const code of ['class A { constructor(x) { this.x = x; } }', 'console.log(v.constructor.name);', '// Never eval.\nconst a = 1;', '// open the Chrome inspector to debug'])
    t.deepEqual(nodeComputedLoads(code), { folders: [], unknown: [] }, code);
});

test('review s90m: optional calls, a constructor taken, computed keys on any value, the globals kept as values', (t) => {
  for (const code of [
    'eval?.(src);',
    'Function?.(src)();',
    'const f = eval;\nf(src);',
    'const { constructor } = () => 0;\nconstructor(src)();',
    'const { constructor: F } = () => 0;\nF(src)();',
    'const k = "constr" + "uctor";\nconst F = (() => 0)[k];\nF(src)();',
    'function check() {}\nconst F = check[k];',
    'const vm = require("node:vm");\nvm[k](src);',
    'handlers[type](payload);',
    'x[k].call(null, src);',
    'const r = require("node:vm")[k];',
    'Reflect.get(() => 0, "constr" + "uctor")(src)();',
    'Object.getOwnPropertyDescriptor(fn, k);',
    'globalThis?.[k](src);',
    'module?.[k](file);',
    'const g = globalThis;\ng[k](src);',
    '(globalThis)[k](src);',
    'globalThis/**/[k](src);',
    'const { [k]: r } = module;\nr(file);',
    'x["constructor"](src);',
  ])
    t.true(unknown(code).length > 0, code);
});

test('review s90m: ordinary programs stay readable: a constructor guard, a type test, an own register or runMain, execArgv read, a local self, an index', (t) => {
  for (const code of [
    'if (key === "__proto__" || key === "constructor") continue;',
    'const notArray = (v) => v.constructor !== Array;',
    'if (Array === v.constructor) {}',
    'console.log(v.constructor.name);',
    'class CheckError extends Error {\n  constructor(message) {\n    super(message);\n  }\n}',
    'const pkg = JSON.parse(text);\nif (pkg.type === "module") {}\nfunction register(name) {}\nregister("x");',
    'if (process.execArgv.includes("--inspect")) {}',
    'const self = { a: 1 };\nconst k = "a";\nconsole.log(self[k]);',
    'function runMain() {}\nrunMain();',
    'const o = { [key]: value };',
    'if (x instanceof Function) {}',
    'module.exports = { check };',
  ])
    t.deepEqual(nodeComputedLoads(code), { folders: [], unknown: [] }, code);
});

test('node:vm, node:repl and node:wasi taken at all, and a module indexed by a computed key, refuse', (t) => {
  for (const code of [
    'const vm = require("node:vm");',
    'import { Script } from "vm";',
    'const repl = await import("node:repl");',
    'const vm = require("vm");\nconst run = vm[k];\nrun(src);',
    'const m = require("node:module");\nconst load = m[k];\nload(file);',
    'import * as cp from "node:child_process";\nconst f = cp[k];',
  ])
    t.true(unknown(code).length > 0, code);
  for (const code of ['const fs = require("node:fs");\nconst text = fs.readFileSync("a.txt", "utf8");', 'import path from "node:path";\nconst parts = names[0];'])
    t.deepEqual(nodeComputedLoads(code), { folders: [], unknown: [] }, code);
});

test('each of the s90m rules on its own: a global kept then indexed, a destructured computed key of any value, a descriptor, register as a member beside an own register', (t) => {
  for (const code of [
    'const g = globalThis;\nconst f = g[k];\nf(src);',
    'const { [k]: run } = lib;',
    'Object.getOwnPropertyDescriptor(fn, k);',
    'const m = require("node:module");\nfunction register() {}\nm.register("./hook.mjs", url);',
  ])
    t.true(unknown(code).length > 0, code);
});

test('review s92o: a value read by a computed key and called later, a call result indexed and called, getBuiltinModule and bindings, node:module taken', (t) => {
  for (const code of [
    'const F = [].map[k];\nF(src)();',
    'const F = Object.getPrototypeOf(async () => 0)[k];\nnew F(src);',
    'let run;\nrun = lib.tools[k];\nrun.call(null, src);',
    'Object.entries(require("node:module")).find(([n]) => n.endsWith("load"))[1](file);',
    'const vm = process.getBuiltinModule("node:vm");',
    'process.binding("fs");',
    'const m = require("module");',
    'import Module from "node:module";',
    'const { createRequire, _load } = require("node:module");',
    // Optional chaining and process's computed key, each seen by one rule only.
    'handlers?.[type](payload);',
    'const f = process[k];',
    'make()[0](src);',
    // A module the program declares is not told from node's (review s04a: one in a function exempted none at the top).
    'const changed = ["a/x.js"];\nfor (const module of changed) console.log(module);',
  ])
    t.true(unknown(code).length > 0, code);
  for (const code of [
    'function main() {}\nif (require.main === module) main();',
    'const { createRequire } = require("node:module");',
    'import { createRequire, isBuiltin } from "node:module";',
    'const req = require("module").createRequire(__filename);',
  ])
    t.deepEqual(nodeComputedLoads(code), { folders: [], unknown: [] }, code);
});

test('review s94q: a member read by a key the program computes refuses wherever the value goes; a literal key, a name bound to literals, a counter, an index or .length arithmetic does not', (t) => {
  for (const code of [
    'run([].map[k]);',
    'const get = () => [].map[k];\nget()(src)();',
    'const o = { f: [].map[k] };',
    'for (const f of [[].map[k]]) f(src)();',
    '((f = [].map[k]) => f(src)())();',
    'const F = [].map[k] || 0;',
    'const F = ([].map[k]);',
    'const F =\n  [].map[k];',
    '[].map[ks[0]];',
    // Over-denials, documented: a dictionary read by a data key (use a Map: counts.get(name)).
    'const limit = limits[ext];',
    'counts[name] = (counts[name] || 0) + 1;',
    'const part = line.split(",")[i];',
    'for (let i = 0; i < 3; i++) {\n  i = data;\n  x[i];\n}',
    // A callback's second parameter is an index only where the receiver is surely an array (review s04a: a Map's
    // forEach hands its key, a Set's its value).
    'a.forEach((v, i) => b[i]);',
    'new Map(m).forEach((v, i) => b[i]);',
  ])
    t.true(unknown(code).length > 0, code);
  for (const code of [
    'for (let i = 0; i < a.length; i++) x = a[i];',
    'for (let i = 0; i < a.length; i += 2) x = a[i + 1];',
    '[1, 2].forEach((v, i) => b[i]);',
    'Object.keys(o).filter(Boolean).map((k, i) => b[i]);',
    'fs.readdirSync(dir).forEach((name, i) => b[i]);',
    'const last = parts[parts.length - 1];',
    'const k = "a";\nconsole.log(o[k]);',
    'for (const k of ["a", "b"]) console.log(o[k]);',
    'const counts = new Map();\ncounts.set(name, (counts.get(name) ?? 0) + 1);',
    'if (0 === v.constructor) {}',
  ])
    t.deepEqual(nodeComputedLoads(code), { folders: [], unknown: [] }, code);
  // A comparison's operand that is not the whole member chain is no type test (review s94q).
  t.true(unknown('if (0 === keep(f.constructor)) {}').length > 0);
  // …nor one that goes on past `.constructor`, read on the tokens (a comment between) and on the raw text (a comment's
  // mention counts there) (reviews s02y, s04a).
  t.true(unknown('for (const s of list) 0 === run.constructor /* c */ (s)();').length > 0);
  t.true(unknown('// 0 === run.constructor(s)()\nconst x = 1;').length > 0);
  // A `with` statement makes a bare name any object's member.
  t.true(unknown('with (o) f();').length > 0);
  // A bare constructor( at a line's start outside a class is the global object's inherited one (review s04a).
  t.true(unknown('const top = (function () { return this; })();\nObject.setPrototypeOf(top, run);\nconstructor(src);\n').length > 0);
  // A stack frame's function (review s06c).
  t.true(unknown('Error.prepareStackTrace = (e, frames) => frames;\nconst frames = new Error().stack;\n').length > 0);
  // An array callback's index bound again elsewhere is any value (a name bound twice).
  t.true(unknown('[1].forEach((x, i) => x);\nconst i = key;\nconsole.log(o[i]);').length > 0);
  // `arguments` in a block that is no function's body (an if's) is node's wrapper's.
  t.true(unknown('if (names) {\n  const load = arguments[1];\n}').length > 0);
  // A class field's initializer ending in `.` before a comment, then constructor( on the next line: a member read.
  t.true(unknown('class A {\n  x = run. // c\nconstructor(src)\n}').length > 0);
  // JavaScript too: a keyword after `as` may be a TypeScript type's name.
  t.true(unknown('const k = key;\nconst q = x as return / run([].map[k]) / 1;').length > 0);
  // A TypeScript type after `as` ends at its statement: a regular expression after `?` later reads.
  t.deepEqual(nodeComputedLoads('const y = x as any;\nconst m = s ? /a/.test(s) : false;\n', { typescript: true }), { folders: [], unknown: [] });
});

test('an array pattern is no member read: const [a, b] = x, for (const [k, v] of …)', (t) => {
  for (const code of ['const [project, target] = process.argv[3].split(":");', 'for (const [k, v] of Object.entries(o)) console.log(k, v);', 'let [first] = list;'])
    t.deepEqual(nodeComputedLoads(code), { folders: [], unknown: [] }, code);
});

// Review s08e: each class fixed, in other spellings than the review's (test/adversarial-s08e has those end to end).
test('review s08e: a computed key in an object pattern refuses whatever encloses it; one in an object literal that is surely an expression does not', (t) => {
  for (const code of [
    'const [{ [k]: F }] = [run];',
    'const { a: { b: [{ [k]: F }] } } = o;',
    'let F;\nF = 0, [{ [k]: F }] = [run];',
    'let F;\n({ x: [{ [k]: F }] } = { x: [run] });',
    'x = { [k]: F } = run;',
    'function g([{ [k]: F }]) {}',
    'const g = ({ a: { [k]: F } }) => F;',
    'for (const [{ [k]: F }] of list) F();',
    'try {} catch ({ e: { [k]: F } }) {}',
    'const { a, [k]: F } = run;',
    'const [{ ["constru\\x63tor"]: F }] = [run];',
    'const { [/* c */ k]: F } = run;',
  ])
    t.true(unknown(code).length > 0, code);
  for (const code of [
    'const o = { [Symbol.iterator]: 1, ["a"]: 2 };',
    'const m = Object.assign({}, { [`x`]: 1 });',
    'list.push({ [key]: value });',
    'return { ...base, [name]: value };',
    'const table = [{ [name]: 1 }];',
  ])
    t.deepEqual(unknown(`function f(key, name, value, base, list) {\n${code}\n}`), [], code);
  // TypeScript's index signatures and mapped types are no keys.
  t.deepEqual(nodeComputedLoads('interface M { [key: string]: number }\ntype R = { [K in keyof M]: string };', { typescript: true }).unknown, []);
  t.deepEqual(nodeComputedLoads('type R = { [K in Keys as Lowercase<K>]: string };\ntype U = { [K in "a" | "b"]: 1 };', { typescript: true }).unknown, []);
});

test('review s15i: a key shaped `[k in o]:` is computed in JavaScript, and in TypeScript where an operator of an expression is in it', (t) => {
  t.is(nodeComputedLoads('const { [k in run]: F } = run;\n').unknown.length, 1);
  t.is(nodeComputedLoads('const { [k in run && k]: F } = run;\n', { typescript: true }).unknown.length, 1);
  t.is(nodeComputedLoads('const { [k in run ? k : "name"]: F } = run;\n', { typescript: true }).unknown.length, 1);
});

test('review s15i: where the program names the environment, a computed key of an object literal refuses even where it only writes', (t) => {
  t.is(nodeComputedLoads('Object.assign(process.env, { [name]: value });\n').unknown.length, 1);
  t.is(nodeComputedLoads('run({ env: { ...base, [name]: value } });\n').unknown.length, 1);
  t.is(nodeComputedLoads('const { env } = process;\nconst o = { [name]: value };\n').unknown.length, 1);
  // No environment named: the literal's computed key only writes.
  t.deepEqual(nodeComputedLoads('const o = { [name]: value };\nconsole.log(o.environment);\n').unknown, []);
});

test('review s15i: a name ending in a non-ASCII letter before [ is a member read; one ending in a keyword after one too', (t) => {
  t.is(nodeComputedLoads('const fé = [].map;\nrun(fé[k]);\n').unknown.length, 1);
  t.is(nodeComputedLoads('const éreturn = run;\nrun(éreturn[k]);\n').unknown.length, 1);
  t.is(nodeComputedLoads('const a\u200d = run;\nrun(a\u200d[k]);\n').unknown.length, 1);
  t.deepEqual(nodeComputedLoads('function f() {\n  return [1, 2];\n}\n').unknown, []);
});

test('review s15i: a counter compared in a control header and then assigned any text is no number', (t) => {
  t.is(nodeComputedLoads('let i = 0;\nif (0 === i) {\n  log();\n}\ni = k;\nrun([].map[i]);\n').unknown.length, 1);
  t.deepEqual(nodeComputedLoads('const list = [1];\nfor (let i = 0; i < list.length; i++) {\n  run(list[i]);\n}\n').unknown, []);
});

test('review s08e: a keyword-named private name or member before [ is a member read; TypeScript non-null ! before [ too', (t) => {
  for (const code of ['run(this.#return[k]);', 'run(this.#typeof[k]);', 'run(this.#in  [k]);', 'for (const f of [Array.of[k]]) f();', `run(x.\n/*${' '.repeat(300)}*/ let[k]);`])
    t.true(unknown(code).length > 0, code);
  for (const code of ['run([].map![k]);', 'run([].map!!\n[k]);', 'run(f()! [k]);', 'run(a.b /* c */ ![k]);']) t.true(nodeComputedLoads(code, { typescript: true }).unknown.length > 0, code);
  for (const code of ['if (![a, b].includes(c)) x();', 'const y = ![1];', 'for (const [a, b] of [[1, 2]]) console.log(a);', 'for (const x of [1, 2]) console.log(x);'])
    t.deepEqual(unknown(code), [], code);
});

test('review s08e: the process object kept as a value, mainModule in any spelling and require.main but compared refuse', (t) => {
  for (const code of [
    'const { mainModule: m } = process;',
    'process\n  // c\n  .mainModule.load(f);',
    'const p = process;',
    'use(process);',
    'const p = globalThis.process;\np.binding("fs");',
    'const p = require("node:process");',
    'import * as p from "node:process";',
    'import { mainModule } from "node:process";',
    'const { binding } = require("process");',
    'module.require.main.load(f);',
    'require /* c */ .main.load(f);',
    'const m = require.main;',
    'x["mainModule"];',
  ])
    t.true(unknown(code).length > 0, code);
  for (const code of [
    'const { env, argv } = process;',
    'const x = typeof process !== "undefined" && process.env.CI;',
    'import process from "node:process";\nprocess.exit(0);',
    'import { env, argv } from "node:process";',
    'if (require.main === module) main();',
    'if (module !== require.main) return;',
    'spawn("x", [], { env: { ...process.env, process: "1" } });',
  ])
    t.deepEqual(unknown(code), [], code);
});

test("review s08e: createRequire's require, fork and Worker used as anything but a call refuse; Reflect but its harmless members; the descriptors' readers by any name", (t) => {
  const NODE_MODULE = 'const { createRequire } = require("node:module");\n';
  for (const code of [
    `${NODE_MODULE}const r = createRequire(__filename), unused = 0;`,
    `${NODE_MODULE}let r;\nr = createRequire(__filename);`,
    `${NODE_MODULE}use({ r: createRequire(__filename) });`,
    `${NODE_MODULE}const r = createRequire(__filename);\nconst q = r;`,
    `${NODE_MODULE}const r = createRequire(__filename);\nuse(r);`,
    'const m = require("node:module");\nconst cr = m.createRequire;',
    'const { Worker: W } = require("node:worker_threads");',
    'const W = require("node:worker_threads").Worker;',
    'const launch = cp.fork;',
    '(cp.fork)(file);',
    'const [f] = [fork];',
    'const { get } = Reflect;',
    'const R = Reflect;\nR.get(o, k);',
    'Reflect.set(process.env, k, v);',
    'globalThis.Reflect.apply(f, null, []);',
    'const { getOwnPropertyDescriptor: d } = Object;',
    'Object["getOwnPropertyD\\x65scriptor"](o, k);',
    'const { getOwnPropertyDescriptors } = Object;',
  ])
    t.true(unknown(code).length > 0, code);
  for (const code of [
    `${NODE_MODULE}const r = createRequire(__filename);\nr("./x.js");\nr.resolve("./y.js");`,
    'import { createRequire } from "node:module";\nconst require = createRequire(import.meta.url);\nrequire("./package.json");',
    'const { Worker } = require("node:worker_threads");\nnew Worker("./w.js");',
    'import { Worker } from "node:worker_threads";\nnew Worker(new URL("./w.js", import.meta.url));',
    'const { fork } = require("node:child_process");\nfork("./w.js");',
    'const keys = Reflect.ownKeys(o);\nReflect.has(o, "x");',
  ])
    t.deepEqual(unknown(code), [], code);
});

test('review s08e: a name bound once to a literal or a counter is trusted only in its declaration scope; an array pattern after a declaration binds', (t) => {
  for (const code of [
    'const key = "name";\n{\n  const [key] = [k];\n  run([].map[key]);\n}',
    'const key = "name";\nfor (const [key] of [[k]]) run([].map[key]);',
    'let i = 0;\ni++;\n{\n  let [i] = [k];\n  run([].map[i]);\n}',
    'function a() {\n  var key = "name";\n}\nrun([].map[key]);',
    'function a() {\n  for (let i = 0; i < 1; i++);\n}\nrun([].map[i]);',
    'for (const key of ["name"]) {}\nrun([].map[key]);',
    'function a() {\n  const here = __dirname;\n}\nrequire(here + "/x/" + n);',
  ])
    t.true(unknown(code).length > 0, code);
  for (const code of [
    'const key = "name";\nfunction f() {\n  return o[key];\n}',
    'function f() {\n  const key = "name";\n  return o[key];\n}',
    'for (const key of ["a", "b"]) console.log(o[key]);',
    'for (let i = 0; i < a.length; i++) console.log(a[i]);',
    'const cfg = { key: 1 };\nfunction f() {\n  const key = "name";\n  return o[key];\n}',
  ])
    t.deepEqual(unknown(code), [], code);
  t.deepEqual(nodeComputedLoads('function f(n) {\n  const here = __dirname;\n  return require(here + "/rules/" + n);\n}').folders, [{ folder: './rules/', line: 2 }]);
});

test("review s08e: node:test's module is its own test: any name taken from it read by test, it or run, or handed on, refuses", (t) => {
  for (const code of [
    'const t = require("node:test");\nt.test.run({});',
    'const { test } = require("node:test");\ntest.test.run({});',
    'const { it } = require("node:test");\nit.it.run({});',
    'const { test: t } = require("node:test");\nt.it.run({});',
    'const { test } = require("node:test");\nconst x = test;',
    'import test from "node:test";\nuse(test);',
    'const t = require("node:t\\x65st");\nt.run({});',
  ])
    t.true(unknown(code).length > 0, code);
  for (const code of [
    'const { test, describe } = require("node:test");\ndescribe("x", () => {\n  test("y", () => {});\n  test.skip("z");\n});',
    'import test from "node:test";\ntest("a", () => {});\ntest.mock.fn();',
  ])
    t.deepEqual(unknown(code), [], code);
});

test('review s08e: a literal key is judged by its value, escapes spelled out; a quoted "constructor" key refuses after a comma too', (t) => {
  for (const code of [
    'run(run["constru\\x63tor"]);',
    'run(run["constr\\u0075ctor"]);',
    'run(run["constr\\u{75}ctor"]);',
    'run(run["\\143onstructor"]);',
    "run(run['constru\\\nctor']);",
    'run(run[`constru\\x63tor`]);',
    'const key = "\\x63onstructor";\nrun(run[key]);',
    'const { "constru\\x63tor": F } = run;',
    'const { name: unused, "constructor": F } = run;',
    "const { name: unused, 'constructor': F } = run;",
    'use("\\x65val(x)");',
  ])
    t.true(unknown(code).length > 0, code);
  t.deepEqual(unknown('const o = { "a\\x62c": 1 };\nconsole.log(o["a\\x62c"], "line\\n");'), []);
});

test("review s15i: eval and the Function constructors refuse as any object's member too, through ?. and comments", (t) => {
  for (const code of [
    'run(globalThis.Function);',
    'const F = global.Function;',
    'const e = global.eval;',
    'const e = globalThis?.eval;',
    'const A = x.AsyncFunction;',
    'const G = x.GeneratorFunction;',
    'const F = global /* c */ . Function;',
    'const F = self\n  .Function;',
    'const G = (function () {\n  return this;\n})();\nconst F = G.Function;',
  ])
    t.true(unknown(code).length > 0, code);
  t.deepEqual(unknown('if (v instanceof Function) console.log(v.name);'), []);
});

test("review s15i: child_process's and execa's runners used as anything but a call, a shorthand or an alias callAliases reads refuse", (t) => {
  const cp = 'const cp = require("node:child_process");\n';
  for (const code of [
    `${cp}const tools = { node: cp.execFileSync };`,
    `${cp}const { execFileSync: x } = cp;`,
    `${cp}cp.execFileSync.call(cp, "node", ["a.js"]);`,
    `${cp}cp.spawnSync.apply(cp, ["node", ["a.js"]]);`,
    `${cp}cp["execFileSync"]("node", ["a.js"]);`,
    `${cp}const k = "spawn";\ncp[k]("node", ["a.js"]);`,
    `${cp}const { "execFileSync": x } = cp;`,
    `${cp}util.promisify(cp.execFile)("node", ["a.js"]);`,
    `${cp}const [x] = [cp.execFileSync];`,
    `${cp}const y = [cp?.execFileSync];`,
    `${cp}const x = quiet ? cp.spawnSync : cp.spawnSync;`,
    'import * as cp from "node:child_process";\nconst t = { run: cp.spawnSync };',
    'import { execa } from "execa";\nrun(execa);',
    'const { spawn: s } = require("cross-spawn");\ns("node", ["a.js"]);',
  ])
    t.true(unknown(code).length > 0, code);
  for (const code of [
    'const { execSync: sh } = require("node:child_process");\nsh("git status");',
    'import { execFileSync as run } from "node:child_process";\nrun("git", ["status"]);',
    `${cp}const x = cp.execFileSync;\nx("git", []);`,
    'const { exec } = require("child_process");\nconst util = require("util");\nconst run = util.promisify(exec);\nrun("ls");',
    'const { execSync } = require("child_process");\nconst exec = (c) => execSync(c, { stdio: "inherit" });\nexec("git status");',
    'const m = /a(b)/.exec("ab");\nconsole.log(m);',
  ])
    t.deepEqual(unknown(code), [], code);
});

test('review s15i: a parenthesized assignment target and a for await head bind the name', (t) => {
  for (const code of [
    'let key = "name";\n(key) = k;\nrun([].map[key]);',
    'let key = "name";\n((key)) ??= k;\nrun([].map[key]);',
    'let key = "name";\n[(key)] = [k];\nrun([].map[key]);',
    'let key = "name";\n({ a: (key) } = { a: k });\nrun([].map[key]);',
    'let i = 0;\n(i) = k;\nrun([].map[i]);',
    'let i = 0;\n(i) += k;\nrun([].map[i]);',
    'async function f() {\n  let key = "name";\n  for await (key of [k]) run([].map[key]);\n}',
    'async function f() {\n  let key = "name";\n  for await (key in o) run([].map[key]);\n}',
  ])
    t.true(unknown(code).length > 0, code);
  t.deepEqual(unknown('[1, 2].forEach((v, i) => b[i]);\nconst key = "a";\nf(a, (x) => x[key]);'), []);
});

test("review s15i: a binding's initializer ends where its statement ends, not at a line that goes on", (t) => {
  for (const code of [
    'const key = ""\n  + k;\nrun([].map[key]);',
    'const key = "constr"\n  .concat("uctor");\nrun([].map[key]);',
    'const key = "a"\n  ? k : "b";\nrun([].map[key]);',
    'const key = "a" // c\n  + k;\nrun([].map[key]);',
    'const key = "a"\n  || k;\nrun([].map[key]);',
    'const key = "a"\n  [k];\nrun([].map[key]);',
    'const root = __dirname\n  + "/..";\nrequire(root + "/lint/" + n);',
  ])
    t.true(unknown(code).length > 0, code);
  t.deepEqual(unknown('const key = "x"\nconsole.log(cfg[key]);\nconst here = __dirname\nrequire(here + "/rules/" + n);'), []);
  t.deepEqual(folders('const here = __dirname\nrequire(here + "/rules/" + n);'), ['./rules/']);
});

test('node:cluster taken refuses on its own, its settings not written out (review s15i: `exec:` as a key refuses too)', (t) => {
  t.true(unknown('const cluster = require("node:cluster");\nconst settings = JSON.parse(text);\ncluster.setupPrimary(settings);').length > 0);
});
