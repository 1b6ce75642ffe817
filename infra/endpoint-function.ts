import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { type TableKey, tableKeys, tables } from '../shared/db/tables.ts';
import type { Route, TableAccess } from '../shared/routes.ts';

// Exactly the item operations the code uses. CDK's grantReadData/grantReadWriteData would add Scan,
// DeleteItem, BatchWriteItem and stream reads, none of which any request path needs.
const READ_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:ConditionCheckItem',
];
export const TABLE_ACTIONS: Record<TableAccess, readonly string[]> = {
  read: READ_ACTIONS,
  write: [...READ_ACTIONS, 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
};

const repoRoot = dirname(dirname(fileURLToPath(import.meta.url)));

export interface EndpointFunctionProps {
  /** The route row this function serves: entry file, memory and table grants all come from it. */
  route: Route;
  /** Every table of the stack; the function binds only those its row names. */
  tables: Record<TableKey, ITable>;
  /** Variables every function gets (table variables are added by `bindTable`). */
  environment?: Record<string, string>;
}

/** One endpoint's Lambda function, with every default in one place and exactly its row's table grants. */
export class EndpointFunction extends NodejsFunction {
  readonly route: Route;

  constructor(scope: Construct, id: string, props: EndpointFunctionProps) {
    const { route } = props;
    super(scope, id, {
      description: describeRoute(route),
      entry: join(repoRoot, 'functions', `${route.handler}.ts`),
      projectRoot: repoRoot,
      depsLockFilePath: join(repoRoot, 'package-lock.json'),
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      timeout: Duration.seconds(10),
      // CPU scales with memory, so the password-hashing rows ask for more.
      memorySize: route.memoryMb ?? 256,
      environment: props.environment,
      // An explicit log group instead of `logRetention`, which would add a helper function to the stack.
      logGroup: new LogGroup(scope, `${id}Logs`, {
        retention: RetentionDays.ONE_MONTH,
        removalPolicy: RemovalPolicy.DESTROY,
      }),
      bundling: {
        minify: true,
        sourceMap: false,
        target: 'node24',
        format: OutputFormat.CJS,
        // Prefer packages' ESM builds: esbuild tree-shakes them, which makes the SDK bundles much smaller.
        mainFields: ['module', 'main'],
        // Bundle the AWS SDK too: the version we test is the version that runs, and a bundled,
        // tree-shaken client loads faster than the runtime's full copy.
        externalModules: [],
      },
    });
    this.route = route;
    for (const key of tableKeys) {
      const access = route.tables[key];
      if (access) this.bindTable(key, props.tables[key], access);
    }
  }

  /** Binds a table to this function: the variable that carries its name and the least-privilege grant, together. */
  bindTable(key: TableKey, table: ITable, access: TableAccess): void {
    this.addEnvironment(tables[key].envVar, table.tableName);
    table.grant(this, ...TABLE_ACTIONS[access]);
  }
}

/** The function's description, e.g. `GET /projects/{id} (platform)`; test/infra finds a row's function by it. */
export const describeRoute = (route: Route): string => `${route.method} ${route.path} (${route.api})`;
