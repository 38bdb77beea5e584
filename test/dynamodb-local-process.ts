// A process that starts DynamoDB Local and then only waits: the start-local tests kill it hard and
// check the JVM goes with it. Prints the port once DynamoDB Local answers.
import { startDynamoDbLocal } from '../local/stand-ins/dynamodb-local.js';

const dynamo = await startDynamoDbLocal();
process.stdout.write(`${JSON.stringify({ port: dynamo.port })}\n`);
setInterval(() => {}, 60_000);
