// Finding (over-denial): the tool-file reader reads at most 200 files across all tool entries, and a tool directory
// holding more refuses every writer. A JetBrains project's .idea/ routinely holds more: one
// .idea/libraries/Maven__*.xml per dependency (a Maven project opened without external storage), plus
// inspectionProfiles/, runConfigurations/, codeStyles/. Such a project refuses every write and command of every agent.
// Safe outcome: an ordinary write succeeds (library descriptors, which name jars, read or skipped without refusing all).
import test from 'ava';
import { agentRun, world, writtenText } from './harness.js';

test('a .idea/ with 250 library descriptors does not refuse an ordinary write', async (t) => {
  const files: Record<string, string> = { '.idea/misc.xml': '<project version="4"/>\n', '.idea/modules.xml': '<project version="4"/>\n' };
  for (let i = 0; i < 250; i++)
    files[`.idea/libraries/Maven__org_example_lib${i}_1_0.xml`] =
      `<component name="libraryTable">\n  <library name="Maven: org.example:lib${i}:1.0">\n    <CLASSES><root url="jar://$MAVEN_REPOSITORY$/org/example/lib${i}/1.0/lib${i}-1.0.jar!/" /></CLASSES>\n  </library>\n</component>\n`;
  const w = world(t, files);
  const result = await agentRun(w, [{ name: 'write', input: { path: 'src/App.java', content: 'class App {}\n' } }]);
  const written = writtenText(w, 'src/App.java');
  t.is(written, 'class App {}\n', `${result.stdout}${result.stderr}`);
});
