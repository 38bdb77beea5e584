/** Where `npm run build` writes the console's built assets (index.html and assets/). */
export declare const CONSOLE_DIST_DIR: string;
