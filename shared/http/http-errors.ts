import { errorCatalogue } from '#shared/model/error-catalogue.ts';

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
  /** The limit the body broke; the answer states the contract's limit (errorCatalogue). */
  constructor(limitBytes: number) {
    super(`Request body exceeds ${limitBytes} bytes`);
  }
}

export class UnsupportedMediaTypeError extends Error {
  override name = 'UnsupportedMediaTypeError';
  constructor() {
    super(errorCatalogue.unsupported_media_type.message);
  }
}
