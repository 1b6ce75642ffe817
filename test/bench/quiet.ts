// The bench's first import. The service reads LOG_LEVEL once, when its modules load, and the bench's
// own imports (the stack, the router) load them: without this, the gateway's access lines (metrics
// included) would be printed among the results.
process.env.LOG_LEVEL = 'silent';
