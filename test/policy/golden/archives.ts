// Golden cases for the archivers: tar (create and list only, old-style keys read
// with tar's own rules), zip and rsync. What they read and write are paths; the
// options that run programs are denied; following links through a tree has
// every link checked.
import { ARGUMENT, no, ok, OUTSIDE, PROTECTED, type GoldenGroup } from './golden-case.js';

const RUNS = 'runs a program';
const EXTRACT = 'extraction is denied: it writes whatever names and links the archive holds';

export const ARCHIVES: readonly GoldenGroup[] = [
  {
    program: 'tar',
    cases: [
      no(ARGUMENT, 'tar cf out.tar a.txt', 'old-style keys are denied: write tar -cf'),
      no(ARGUMENT, 'tar cvf out.tar src', 'old-style keys are denied: write tar -cf'),
      ok('tar -czf out.tgz src'),
      no(ARGUMENT, 'tar tf archive.tar', 'old-style keys are denied: write tar -cf'),
      ok('tar -tvf archive.tar'),
      ok('tar --create --file=out.tar a.txt b.txt'),
      ok('tar -cf - a.txt'),
      ok('tar -cf out.tar linkdir'), // without -h the link is stored as a link
      ok('tar -cf out.tar {R}/f.txt'),
      ok('tar -cf out.tar -- --checkpoint-action=exec=id'), // after --, a member name
      no(ARGUMENT, 'tar xf archive.tar', EXTRACT),
      no(ARGUMENT, 'tar -xf archive.tar', EXTRACT),
      no(ARGUMENT, 'tar --extract --file=archive.tar', EXTRACT),
      no(ARGUMENT, 'tar -cPf out.tar a.txt', '-P keeps absolute names'),
      no(ARGUMENT, 'tar --absolute-names -cf out.tar a.txt', 'keeps absolute names'),
      no(ARGUMENT, 'tar -cf out.tar --checkpoint=1 --checkpoint-action=exec=id a.txt', `--checkpoint-action ${RUNS}`),
      no(ARGUMENT, 'tar -cf out.tar --checkpoint-act=exec=id a.txt', 'an abbreviated long option (--checkpoint-action)'),
      no(ARGUMENT, 'tar -cf out.tar --to-command=id a.txt', `--to-command ${RUNS}`),
      no(ARGUMENT, 'tar -cf out.tar -I id a.txt', `-I ${RUNS} as compressor`),
      no(ARGUMENT, 'tar --use-compress-program=id -cf out.tar a.txt', `--use-compress-program ${RUNS}`),
      no(ARGUMENT, 'tar --use-compress-program id -cf out.tar a.txt', `--use-compress-program ${RUNS} (separate value)`),
      no(ARGUMENT, 'tar -cf out.tar --rsh-command=id a.txt', `--rsh-command ${RUNS}`),
      no(ARGUMENT, 'tar -cf x:y.tar a.txt', 'an archive name with a colon is remote: tar runs rsh'),
      no(OUTSIDE, 'tar -cf {O}/out.tar a.txt', 'writes the archive outside'),
      no(ARGUMENT, 'tar cf {O}/out.tar a.txt', 'old-style keys are denied: write tar -cf'),
      no(OUTSIDE, 'tar -cf{O}/out.tar a.txt', '-f with its value attached'),
      no(OUTSIDE, 'tar --file {O}/out.tar -c a.txt', '--file with a separate value'),
      no(OUTSIDE, 'tar -cf {R}/out.tar a.txt', 'R is read-only'),
      no(PROTECTED, 'tar -cf .git/out.tar a.txt', 'writes git metadata'),
      no(OUTSIDE, 'tar -cf out.tar {S}', 'reads the secret'),
      no(OUTSIDE, 'tar -cf out.tar ../secret', 'reads the secret directory'),
      no(OUTSIDE, 'tar -tf {S}', 'reads the secret'),
      no(OUTSIDE, 'tar -chf out.tar linkdir', '-h follows linkdir/toS to the secret'),
      no(OUTSIDE, 'tar -c --dereference -f out.tar linkdir', '--dereference follows linkdir/toS'),
    ],
  },
  {
    program: 'zip',
    cases: [
      ok('zip out.zip a.txt'),
      ok('zip -r out.zip src'),
      ok('zip -q out.zip a.txt README.md'),
      ok('zip -j out.zip src/main.c'),
      ok('zip -ry out.zip linkdir'), // -y stores links as links
      no(ARGUMENT, "zip out.zip a.txt -T -TT 'sh -c id'", `-TT ${RUNS} to test the archive`),
      no(ARGUMENT, 'zip -T out.zip a.txt', `-T ${RUNS} (unzip) to test the archive`),
      no(ARGUMENT, 'zip --unzip-command=id -T out.zip a.txt', `--unzip-command ${RUNS}`),
      no(ARGUMENT, 'zip -@ out.zip', 'reads the names to add from stdin, unseen by the gate'),
      no(OUTSIDE, 'zip {O}/out.zip a.txt', 'writes outside'),
      no(OUTSIDE, 'zip {R}/out.zip a.txt', 'R is read-only'),
      no(OUTSIDE, 'zip out.zip {S}', 'reads the secret'),
      no(OUTSIDE, 'zip out.zip toS', 'zip follows the link toS to the secret'),
      no(OUTSIDE, 'zip -r out.zip linkdir', 'zip follows links in trees unless -y: linkdir/toS'),
    ],
  },
  {
    program: 'rsync',
    cases: [
      ok('rsync -a src/ backup/'),
      ok('rsync -av --delete src/ backup/'),
      ok('rsync -n -a src/ backup/'),
      ok('rsync a.txt b2.txt'),
      no(ARGUMENT, "rsync -e 'sh -c id' a.txt host:x", `-e ${RUNS} as remote shell`),
      no(ARGUMENT, 'rsync --rsh=id a.txt host:x', `--rsh ${RUNS}`),
      no(ARGUMENT, "rsync --rsync-path='sh -c id' a.txt host:x", '--rsync-path runs a command on the other side'),
      no(OUTSIDE, 'rsync -a src/ {O}/backup/', 'writes outside'),
      no(OUTSIDE, 'rsync -a a.txt {R}/', 'R is read-only'),
      no(OUTSIDE, 'rsync -a ../secret/ backup/', 'reads the secret'),
      no(OUTSIDE, 'rsync -aL linkdir/ backup/', '-L copies what links point to: linkdir/toS'),
      no(OUTSIDE, 'rsync --copy-links -a linkdir/ backup/', '--copy-links follows linkdir/toS'),
      no(ARGUMENT, 'rsync -a --files-from={S} . backup/', 'the names in the list would be opened without a check'),
    ],
  },
];
