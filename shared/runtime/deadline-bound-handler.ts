import { NodeHttpHandler } from '@smithy/node-http-handler';
import { requestDeadline } from './deadline.ts';

/**
 * The SDK's HTTP handler, ending every call when the running request's deadline passes, whatever its
 * own timers say (shared/runtime/deadline.ts). The store's clients and the KMS calls use it.
 */
export class DeadlineBoundHandler extends NodeHttpHandler {
  override handle(...[request, options = {}]: Parameters<NodeHttpHandler['handle']>) {
    const deadline = requestDeadline();
    if (!deadline) return super.handle(request, options);
    const { abortSignal } = options;
    const signal = abortSignal instanceof AbortSignal ? AbortSignal.any([abortSignal, deadline]) : deadline;
    return super.handle(request, { ...options, abortSignal: signal });
  }
}
