import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { FUNCTIONS, type FunctionName, TABLE_LIST } from '@tickring/aws/topology';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../constructs/service-function.js';
import { FUNCTION_ACCESS } from '../stacks/function-access.js';
import { SETTING_ENV } from '../stacks/settings.js';

// What each function's loadConfig reads, from its source and the sources of the local modules it
// imports (a config shared by several functions, in functions/wiring/): the stack must grant and set
// no less (the stack test runs loadConfig on the stack's env) and no more (these tests).
function configSource(name: FunctionName): string {
  const file = path.join(PROJECT_ROOT, 'functions', name, 'config.ts');
  const source = readFileSync(file, 'utf8');
  const imported = [...source.matchAll(/from '(\.{1,2}\/[^']+)\.js'/g)].map((m) =>
    readFileSync(path.resolve(path.dirname(file), `${m[1]}.ts`), 'utf8'),
  );
  return [source, ...imported].join('\n');
}
const NAMES = Object.keys(FUNCTIONS) as FunctionName[];

function tablesRead(source: string): string[] {
  const tables = [...source.matchAll(/loadTables\(env, \[([^\]]*)\]\)/g)].flatMap((call) =>
    [...(call[1] ?? '').matchAll(/'([a-z]+)'/g)].map((m) => m[1] ?? ''),
  );
  return [...new Set(tables)].sort();
}

describe('function access', () => {
  it.each(NAMES)(
    'grants %s the tables, queues, topic and secrets its config reads, and no others',
    (name) => {
      const source = configSource(name);
      const access = FUNCTION_ACCESS[name];
      expect(Object.keys(access.tables).sort()).toEqual(tablesRead(source));
      expect(access.sendToRing).toBe(source.includes('loadRingQueueUrls('));
      expect(access.publishAlarms).toBe(source.includes('ENV.alarmTopicArn'));
      expect(access.secrets.includes('adminToken')).toBe(source.includes('ENV.adminTokenSecretArn'));
      expect(access.secrets.includes('accessToken')).toBe(source.includes('ENV.accessTokenSecretArn'));
      expect(access.secrets.includes('edgeSecret')).toBe(source.includes('ENV.edgeSecretArn'));
      expect(access.handOffToDispatcher).toBe(source.includes('loadDispatcherFunction(env'));
    },
  );

  it('names only tables that exist', () => {
    const tables = new Set(TABLE_LIST.map((t) => t.logicalName as string));
    for (const access of Object.values(FUNCTION_ACCESS)) {
      for (const table of Object.keys(access.tables)) expect(tables.has(table)).toBe(true);
    }
  });

  it.each(Object.entries(SETTING_ENV))(
    'passes the %s setting to exactly the functions that read it',
    (key, setting) => {
      const reads = (source: string) =>
        source.includes(`loadSetting(env, '${key}')`) || source.includes(`ENV.${key}`);
      const readers = NAMES.filter((name) => reads(configSource(name)));
      expect([...setting.readers].sort()).toEqual(readers.sort());
    },
  );
});
