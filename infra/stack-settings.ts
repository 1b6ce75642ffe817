import type { PlatformStackProps } from './platform-stack.ts';

// What `cdk deploy -c name=value` may set, read and checked in one place. Every value is optional:
// without any, the stack is today's `PlatformStack`.
//
//   stage                       e.g. staging: the stack becomes PlatformStack-staging
//   requestsPerAddress          WAF: requests per source address per 5 minutes (default 3000)
//   authRequestsPerAddress      WAF: the same for /auth/* (default 100)
//   authReservedConcurrency     reserved concurrency of each /auth/* function (default: none)

export const BASE_STACK_NAME = 'PlatformStack';

type ContextReader = (key: string) => unknown;

function wholeNumber(read: ContextReader, key: string, minimum: number): number | undefined {
  const value = read(key);
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < minimum) {
    throw new Error(`-c ${key}=${String(value)}: must be a whole number of at least ${minimum}`);
  }
  return number;
}

export function stackSettingsOf(read: ContextReader): { stackName: string; props: PlatformStackProps } {
  const stage = read('stage');
  if (stage !== undefined && typeof stage !== 'string') throw new Error('-c stage must be a name');
  const requestsPerAddress = wholeNumber(read, 'requestsPerAddress', 10);
  const authRequestsPerAddress = wholeNumber(read, 'authRequestsPerAddress', 10);
  const authReservedConcurrency = wholeNumber(read, 'authReservedConcurrency', 1);
  return {
    stackName: stage === undefined ? BASE_STACK_NAME : `${BASE_STACK_NAME}-${stage}`,
    props: {
      ...(stage === undefined ? {} : { stage }),
      edgeLimits: {
        ...(requestsPerAddress === undefined ? {} : { requestsPerAddress }),
        ...(authRequestsPerAddress === undefined ? {} : { authRequestsPerAddress }),
      },
      ...(authReservedConcurrency === undefined ? {} : { authReservedConcurrency }),
    },
  };
}
