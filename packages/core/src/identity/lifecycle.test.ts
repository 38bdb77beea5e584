import { identityLifecycleSuite, MemoryPrincipalStore } from '@tickring/testing';

// The same lifecycle runs on DynamoDB Local in packages/aws/src/dynamodb/principal-store.int.test.ts.
identityLifecycleSuite('in memory', async () => new MemoryPrincipalStore());
