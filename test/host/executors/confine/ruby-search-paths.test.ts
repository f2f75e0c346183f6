// The directories Ruby code adds to $LOAD_PATH (ruby-search-paths.ts), by the closed grammar of paths anchored at the
// program file. Expectations by hand from Ruby's rules: File.expand_path("../lib", __FILE__) is the FILE's
// directory's lib/ (the file name is the step ".." takes back), from __dir__ it is the directory above's lib/.
import test from 'ava';
import { rubyLoadPaths } from '../../../../src/host/executors/confine/ruby-search-paths.js';

const directories = (code: string) => {
  const found = rubyLoadPaths(code);
  return { trees: found.names.filter((name) => name.tree).map((name) => `${name.anchor === 'file' ? 'file:' : ''}${name.text}`), computed: found.computed.length };
};

for (const [code, expected] of [
  ['$LOAD_PATH.unshift(File.expand_path("../lib", __dir__))', ['file:../lib']],
  ['$LOAD_PATH.unshift File.expand_path("../lib", __FILE__)', ['file:lib']],
  ["$:.unshift(File.expand_path('lib', File.dirname(__FILE__)))", ['file:lib']],
  ['$LOAD_PATH.unshift "lib"', ['lib']],
  ['$: << "lib"', ['lib']],
  ['$: << "lib" << "vendor"', ['lib', 'vendor']],
  ['$LOAD_PATH.push(File.join(__dir__, "..", "lib"))', ['file:../lib']],
  ['$LOAD_PATH.unshift File.join(File.dirname(__FILE__), "..", "lib")', ['file:../lib']],
  ['$LOAD_PATH.unshift "#{__dir__}/../lib"', ['file:../lib']],
  ['$:.unshift(File.dirname(__FILE__) + "/../lib")', ['file:../lib']],
  ['$LOAD_PATH.unshift(File.dirname(__dir__, 2))', ['file:../..']],
  ['$LOAD_PATH.unshift Pathname.new(__dir__).parent.join("lib").to_s', ['file:../lib']],
  ['$LOAD_PATH.unshift((Pathname(__dir__) + "../lib").to_s)', ['file:../lib']],
  ['$LOAD_PATH.insert(0, File.expand_path("lib"))', ['lib']],
  ['$LOAD_PATH.concat(["lib", "vendor"])', ['lib', 'vendor']],
  ['$LOAD_PATH.prepend(File.realpath("lib", Dir.pwd))', ['lib']],
  ['lib = File.expand_path("../lib", __dir__)\n$LOAD_PATH.unshift(lib) unless $LOAD_PATH.include?(lib)', ['file:../lib']],
] as const)
  test(`$LOAD_PATH: ${code.split('\n').at(-1) ?? ''} → ${expected.join(', ')}`, (t) => {
    t.deepEqual(directories(code), { trees: [...expected], computed: 0 });
  });

for (const code of [
  '$LOAD_PATH.unshift(ENV["TOOLS_LIB"])',
  '$LOAD_PATH.unshift(File.expand_path("~/lib"))',
  '$LOAD_PATH.unshift(*Dir["vendor/*/lib"])',
  '$LOAD_PATH.unshift(File.dirname(File.dirname(__FILE__)))',
  '$LOAD_PATH.unshift "#{ENV["X"]}/lib"',
  '$LOAD_PATH.unshift(lib)',
  'lib = "a"\nlib = "b"\n$LOAD_PATH.unshift(lib)',
  '$LOAD_PATH.replace(["lib"])',
  'add_paths($LOAD_PATH)',
  '$LOAD_PATH[0] = "lib"',
])
  test(`$LOAD_PATH: ${code.replaceAll('\n', '; ')} is unresolved`, (t) => {
    t.is(directories(code).computed, 1);
  });

test('reading the load path changes nothing; the files `require` loads are named in each directory added', (t) => {
  t.deepEqual(rubyLoadPaths('puts $LOAD_PATH.include?("x")\n$:.each { |d| puts d }\n'), { names: [], computed: [] });
  const names = rubyLoadPaths('$LOAD_PATH.unshift(File.expand_path("..", __dir__))\nrequire "checker"\nrequire_relative "helper"\nrequire "json"\n').names;
  t.deepEqual(
    names.map((name) => `${name.anchor === 'file' ? 'file:' : ''}${name.text}${name.tree ? '/**' : ''}`),
    ['file:../**', 'file:../__zotbox_module_search_directory__@ruby', 'file:../checker.rb', 'file:../json.rb'],
  );
});
