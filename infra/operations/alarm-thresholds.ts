// When the alarms page: stack settings (`-c alarm...`, infra/stack-settings.ts) over these defaults,
// which page for a real outage and not for one slow request.

export interface AlarmThresholds {
  /** Share of a stage's requests answered 5xx over 5 minutes, in percent. */
  serverErrorPercent: number;
  /** p99 latency of a stage over 5 minutes, in milliseconds (the request deadline is 3 s). */
  p99LatencyMs: number;
  /**
   * Requests a stage must have served in 5 minutes for its 5xx share and p99 to count: below it one
   * 503 among 50 requests is 2 %, and a p99 is the slowest request.
   */
  minimumRequests: number;
  /** How far behind its stream a consumer may fall, in minutes (IteratorAge). */
  iteratorAgeMinutes: number;
  /** A function's errors over 5 minutes (and the region's throttled invocations). */
  functionFaults: number;
  /** A table's throttle events (its indexes' included), or its system errors, over 5 minutes. */
  tableFaults: number;
}

export const DEFAULT_ALARM_THRESHOLDS: AlarmThresholds = {
  serverErrorPercent: 1,
  p99LatencyMs: 2500,
  minimumRequests: 100,
  iteratorAgeMinutes: 10,
  functionFaults: 5,
  tableFaults: 1,
};
