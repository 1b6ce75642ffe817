import { reloadSettings } from '#shared/runtime/config.ts';

/**
 * Sets (or, given undefined, unsets) environment variables for a suite and reads the settings again (shared/runtime/config.ts),
 * and returns the function that puts the previous values back, so that later suites in the same
 * worker run with the run's settings. The service reads its settings when it works, not when it
 * loads: a suite imports it as any module, before or after this.
 */
export function overrideSettings(values: Record<string, string | undefined>): () => void {
  const previous = Object.fromEntries(Object.keys(values).map((name) => [name, process.env[name]]));
  for (const [name, value] of Object.entries(values)) {
    // Undefined unsets: the setting as a run without it has it.
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  reloadSettings();
  return () => {
    for (const [name, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    reloadSettings();
  };
}
