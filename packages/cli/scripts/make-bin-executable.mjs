// Makes the built `dist/bin.js` executable (tsc writes it 0644) after checking its `#!/usr/bin/env node`
// line, so `node_modules/.bin/tickring` (npm's link to it) runs. Called by this package's build and by
// the repository's root build.
import { chmodSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
if (!readFileSync(bin, 'utf8').startsWith('#!/usr/bin/env node\n')) {
  console.error(`${bin} does not start with #!/usr/bin/env node`);
  process.exit(1);
}
chmodSync(bin, 0o755);
