/** Captures what the service writes with console.log and console.error while `run` runs. */
export async function captureLogs<T>(run: () => Promise<T>): Promise<{ result: T; lines: string[] }> {
  const lines: string[] = [];
  const { log, error } = console;
  const keep = (...args: unknown[]) => {
    lines.push(args.map(String).join(' '));
  };
  console.log = keep;
  console.error = keep;
  try {
    return { result: await run(), lines };
  } finally {
    console.log = log;
    console.error = error;
  }
}
