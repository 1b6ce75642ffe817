// In AWS, IAM decides on the service's side whether a function may make a call. A local run has no
// IAM: infra/local/iam installs a check here that refuses what the running function's grants would
// not allow, with the error AWS would give. DynamoDB calls are checked by a middleware on the client
// (every one of them reaches DynamoDB Local); these are the calls that never reach an AWS service
// locally (a secret read from the environment, the local sealing key standing in for KMS, the
// in-process queue), so they ask here, at the point where the AWS call would be made. In Lambda
// nothing is installed and `checkAccess` does nothing.

/** What a call needs from IAM: an action, on what, with the condition keys IAM would evaluate. */
export interface AccessRequest {
  /** IAM's action, `<service>:<Action>`: `kms:Decrypt`, `secretsmanager:GetSecretValue`, ... */
  action: string;
  /** What it is called on, by the names this service knows it by. */
  resource: AccessResource;
  /** Condition keys of the request (`kms:EncryptionContext:type` -> `plain`). */
  conditionKeys?: Readonly<Record<string, string>>;
}

export type AccessResource =
  | { service: 'dynamodb'; table: string; index?: string }
  | { service: 'kms' }
  | { service: 'secretsmanager'; secret: string }
  | { service: 'sqs'; queue: string };

type AccessCheck = (request: AccessRequest) => void;

let installed: AccessCheck | undefined;

/** Local runs only (infra/local/iam): the check every later `checkAccess` asks. */
export function installAccessCheck(check: AccessCheck): void {
  installed = check;
}

/** Throws AWS's refusal when the running function may not make this call; a no-op in Lambda. */
export function checkAccess(request: AccessRequest): void {
  installed?.(request);
}
