import { lambdaContext } from '#infra/local/gateway.ts';
import { routes } from '#shared/routes.ts';
import { FUNCTION_TIMEOUT_SECONDS, functionMemoryMb } from '#shared/runtime/function-settings.ts';

// The local gateway's Lambda context reports what the stack deploys (shared/runtime/function-settings.ts):
// each row's memory, and the function timeout as the time left.

const rowOf = (handler: string) => {
  const row = routes.find((route) => route.handler === handler);
  if (!row) throw new Error(`no row runs ${handler}`);
  return row;
};

describe('the Lambda context of the local gateway', () => {
  it("reports each route's memory: the password-hashing rows' own, the default elsewhere", () => {
    expect(lambdaContext(rowOf('login')).memoryLimitInMB).toBe('1024');
    expect(lambdaContext(rowOf('register')).memoryLimitInMB).toBe('1024');
    expect(lambdaContext(rowOf('get-project')).memoryLimitInMB).toBe('256');
    for (const route of routes) {
      expect(lambdaContext(route).memoryLimitInMB).toBe(String(functionMemoryMb(route)));
    }
  });

  it('gives the function timeout as the time left, counting down', () => {
    const context = lambdaContext(rowOf('get-project'));
    const left = context.getRemainingTimeInMillis();
    expect(FUNCTION_TIMEOUT_SECONDS).toBe(10);
    expect(left).toBeLessThanOrEqual(10_000);
    expect(left).toBeGreaterThan(9_000);
    expect(context.functionName).toBe('get-project');
  });
});
