import { appendFileSync, readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

// Opt-in accounting, not a test: with PLATFORM_TEST_CPU_LOG=<file> (jest.config.js adds this file
// then), each test file appends the CPU its worker spent on it, its own and its finished children's,
// its heap at the end, and the longest its worker's event loop was held up meanwhile
// (`<file> <wall s> <cpu s> <children cpu s> <heap MB> <longest loop delay ms>`), to find where a
// run's time goes and what holds a store call up.

const file = process.env.PLATFORM_TEST_CPU_LOG ?? '';
const ticks = (): number[] => {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
  // utime, stime, cutime, cstime: fields 14-17 of stat, 12-15 after the name.
  return [11, 12, 13, 14].map((index) => Number(fields[index]) / 100);
};
const testPath = expect.getState().testPath ?? '';
const started = { at: performance.now(), cpu: ticks() };
const loopDelay = monitorEventLoopDelay({ resolution: 20 });
loopDelay.enable();

afterAll(() => {
  const [user = 0, system = 0, childUser = 0, childSystem = 0] = ticks().map(
    (value, index) => value - (started.cpu[index] ?? 0),
  );
  const wall = (performance.now() - started.at) / 1000;
  loopDelay.disable();
  const heapMb = process.memoryUsage().heapUsed / 2 ** 20;
  const cpu = `${(user + system).toFixed(1)} ${(childUser + childSystem).toFixed(1)}`;
  appendFileSync(
    file,
    `${testPath} ${wall.toFixed(1)} ${cpu} ${heapMb.toFixed(0)} ${(loopDelay.max / 1e6).toFixed(0)}\n`,
  );
});
