export { EmbeddedDatabase, type EmbeddedDatabaseOptions } from './database.js';
