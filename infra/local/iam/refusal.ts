import type { AccessRequest } from '#shared/runtime/access-check.ts';

// The error AWS answers a call its caller's role does not allow with: its name, and a message that
// names the role, the action and the resource (its ARN, with the local run's region and account).

const REGION = 'local';
const ACCOUNT = '000000000000';

export function arnOf({ resource }: AccessRequest): string {
  switch (resource.service) {
    case 'dynamodb':
      return `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/${resource.table}${resource.index === undefined ? '' : `/index/${resource.index}`}`;
    case 'kms':
      return `arn:aws:kms:${REGION}:${ACCOUNT}:key/environment-key`;
    case 'secretsmanager':
      return `arn:aws:secretsmanager:${REGION}:${ACCOUNT}:secret:${resource.secret}`;
    case 'sqs':
      return `arn:aws:sqs:${REGION}:${ACCOUNT}:${resource.queue}`;
  }
}

/** What the SDK throws for a refused call: a client fault with AWS's error name and message. */
export class AccessDeniedException extends Error {
  override readonly name = 'AccessDeniedException';
  readonly $fault = 'client';
  readonly $metadata = { httpStatusCode: 400, attempts: 1, totalRetryDelay: 0 };

  constructor(functionName: string, request: AccessRequest) {
    super(
      `User: arn:aws:sts::${ACCOUNT}:assumed-role/${functionName}/${functionName} is not authorized to perform: ` +
        `${request.action} on resource: ${arnOf(request)} because no identity-based policy allows the ${request.action} action`,
    );
  }
}
