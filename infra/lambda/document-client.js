// In place of @aws-sdk/lib-dynamodb in the Lambda bundles (infra/api/endpoint-function.ts): the
// document client and each command the functions use, from their own modules. The package's index
// also loads its paginators, whose top-level `createPaginator` calls esbuild must keep, and they
// hold on to the Scan and Query commands of both SDK packages in every bundle, used or not. Each
// command here is kept only where a function runs it. A command missing here fails the bundling,
// naming it; tests and local runs use the package itself.

export { BatchGetCommand } from '../../node_modules/@aws-sdk/lib-dynamodb/dist-es/commands/BatchGetCommand.js';
export { BatchWriteCommand } from '../../node_modules/@aws-sdk/lib-dynamodb/dist-es/commands/BatchWriteCommand.js';
export { DeleteCommand } from '../../node_modules/@aws-sdk/lib-dynamodb/dist-es/commands/DeleteCommand.js';
export { GetCommand } from '../../node_modules/@aws-sdk/lib-dynamodb/dist-es/commands/GetCommand.js';
export { PutCommand } from '../../node_modules/@aws-sdk/lib-dynamodb/dist-es/commands/PutCommand.js';
export { QueryCommand } from '../../node_modules/@aws-sdk/lib-dynamodb/dist-es/commands/QueryCommand.js';
export { ScanCommand } from '../../node_modules/@aws-sdk/lib-dynamodb/dist-es/commands/ScanCommand.js';
export { TransactWriteCommand } from '../../node_modules/@aws-sdk/lib-dynamodb/dist-es/commands/TransactWriteCommand.js';
export { UpdateCommand } from '../../node_modules/@aws-sdk/lib-dynamodb/dist-es/commands/UpdateCommand.js';
export { DynamoDBDocumentClient } from '../../node_modules/@aws-sdk/lib-dynamodb/dist-es/DynamoDBDocumentClient.js';
