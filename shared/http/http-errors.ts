// Failures that only exist at the HTTP edge (the domain never throws these).

export class MethodNotAllowedError extends Error {
  override name = 'MethodNotAllowedError';
  readonly allow: readonly string[];
  constructor(allow: readonly string[]) {
    super(`This path supports ${allow.join(', ')}`);
    this.allow = allow;
  }
}

export class PayloadTooLargeError extends Error {
  override name = 'PayloadTooLargeError';
  constructor(limitBytes: number) {
    super(`Request body must not exceed ${limitBytes} bytes`);
  }
}

export class UnsupportedMediaTypeError extends Error {
  override name = 'UnsupportedMediaTypeError';
  constructor() {
    super('Request body must be sent with Content-Type: application/json');
  }
}
