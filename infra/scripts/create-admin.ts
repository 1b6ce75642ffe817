import { parseArgs } from 'node:util';

// Creates an admin user (registration only ever makes members).
//
//   Deployed stack:  AWS_REGION=<the stack's region> USERS_TABLE=<the stack's UsersTableName output> \
//                    npm run create-admin -- --email ops@example.com
//                    (AWS credentials and region from the environment, as for the AWS CLI)
//   Local store:     DYNAMODB_ENDPOINT=http://127.0.0.1:<port> USERS_TABLE=platform-users npm run create-admin -- --email ...
//
// Without --password a strong one is generated and printed once. Prefer leaving it out to typing
// one on a command line, where shell history keeps it.

const { values } = parseArgs({
  options: { email: { type: 'string' }, password: { type: 'string' }, table: { type: 'string' } },
});

if (!values.email) {
  console.error(
    'Usage: npm run create-admin -- --email <address> [--password <password>] [--table <users table>]',
  );
  process.exit(2);
}
if (values.table) process.env.USERS_TABLE = values.table;
if (!process.env.USERS_TABLE) {
  console.error("Set USERS_TABLE (or --table) to the users table: the stack's UsersTableName output.");
  process.exit(2);
}

if (!process.env.DYNAMODB_ENDPOINT && !process.env.AWS_REGION) {
  // The table exists in the stack's region only; a profile's default region would give "table not found".
  console.error("Set AWS_REGION to the stack's region (where its UsersTableName table is).");
  process.exit(2);
}

try {
  // Loaded only now, after USERS_TABLE is settled.
  const { ensureAdmin } = await import('../ensure-admin.ts');
  const outcome = await ensureAdmin(values.email, values.password);
  if (!outcome.created) console.log(`A user ${outcome.email} already exists; nothing was changed.`);
  else if (outcome.generatedPassword)
    console.log(`Admin ${outcome.email} created. Password (shown once): ${outcome.generatedPassword}`);
  else console.log(`Admin ${outcome.email} created.`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
