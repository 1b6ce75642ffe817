/**
 * Sets environment variables for a suite that loads the service afterwards (settings are read
 * when the modules load) and returns the function that puts the previous values back, so that
 * later suites in the same worker load with the run's settings.
 */
export function overrideSettings(values: Record<string, string>): () => void {
  const previous = Object.fromEntries(Object.keys(values).map((name) => [name, process.env[name]]));
  Object.assign(process.env, values);
  return () => {
    for (const [name, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}
