import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';

// What this process writes to DynamoDB, seen as it is answered (to any endpoint: a test's proxy in
// front of DynamoDB Local too; a round too many costs one read of each stream). The local gateway runs the
// handlers in its own process, so their writes pass here: the stream poller reads the streams right
// after one (as Lambda's event source has a record within about a second) rather than asking every
// stream every few milliseconds in case there is one. It hears Node's own HTTP client through its
// diagnostics channel, so no handler's store client knows about it.

const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);
const ANSWERED = 'http.client.response.finish';

/** Calls `listener` each time a write this process sent to DynamoDB has been answered; returns the stop. */
export function onStoreWrite(listener: () => void): () => void {
  const heard = (message: unknown) => {
    const { request } = message as { request: ClientRequest };
    const operation = String(request.getHeader('x-amz-target') ?? '').split('.')[1] ?? '';
    if (WRITES.has(operation)) listener();
  };
  subscribe(ANSWERED, heard);
  return () => unsubscribe(ANSWERED, heard);
}
