import { MemoryPrincipalStore } from '../../../test/identity-doubles.js';
import { identityLifecycleSuite } from '../../../test/identity-lifecycle.js';

// The same lifecycle runs on DynamoDB Local in shared/adapters/dynamodb/principal-store.int.test.ts.
identityLifecycleSuite('in memory', async () => new MemoryPrincipalStore());
