import { config } from '#shared/runtime/config.ts';

// The access line's two forms. CloudWatch reads the JSON object, metrics included (metrics.ts);
// someone watching `npm start` in a terminal reads one short line per request instead of a
// 900-character object. The JSON stays wherever stdout is not a terminal (Lambda, a pipe, a file),
// and LOG_FORMAT chooses either explicitly.

/** Whether access lines are written as JSON (with the metrics) or as text. */
export function accessLineFormat(
  setting: 'json' | 'text' | undefined = config.LOG_FORMAT,
  onTerminal: boolean | undefined = process.stdout.isTTY,
): 'json' | 'text' {
  return setting ?? (onTerminal ? 'text' : 'json');
}

export interface AccessSummary {
  method: string;
  path: string;
  status: number;
  durationMs: number;
  requestId: string;
}

/** `GET /v1/projects 200 12 ms 3f2c…`: method, the path the client used, status, duration, request id. */
export const textAccessLine = ({ method, path, status, durationMs, requestId }: AccessSummary): string =>
  `${method} ${path} ${status} ${Math.round(durationMs)} ms ${requestId}`;
