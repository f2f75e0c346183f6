// `npm run bench -- <area>`: runs one benchmark area (or all, with no argument)
// and prints its figures side by side with the baseline measured in the same run.
interface BenchArea {
  readonly description: string;
  readonly run: () => Promise<void>;
}

const AREAS: Readonly<Record<string, BenchArea>> = {};

async function main(argv: readonly string[]): Promise<number> {
  const names = Object.keys(AREAS);
  const [requested, ...extra] = argv;
  if (extra.length > 0 || (requested !== undefined && !Object.hasOwn(AREAS, requested))) {
    process.stderr.write(`usage: npm run bench -- [area]; areas: ${names.join(', ') || '(none yet)'}\n`);
    return 2;
  }
  if (names.length === 0) {
    process.stdout.write('No benchmark areas are defined in this build.\n');
    return 0;
  }
  for (const name of requested === undefined ? names : [requested]) {
    process.stdout.write(`\n== ${name}: ${AREAS[name]!.description}\n`);
    await AREAS[name]!.run();
  }
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
