import { fileURLToPath } from 'node:url';

/** Where `npm run build` writes the console's built assets (index.html and assets/). */
export const CONSOLE_DIST_DIR = fileURLToPath(new URL('./dist/', import.meta.url));
