import { errorCatalogue } from '#shared/model/error-catalogue.ts';
import { ApiError } from '#shared/model/errors.ts';

// Failures that only exist at the HTTP edge (the domain never throws these).

export class MethodNotAllowedError extends ApiError {
  override name = 'MethodNotAllowedError';
  override readonly code = 'method_not_allowed';
  readonly allow: readonly string[];
  constructor(allow: readonly string[]) {
    super(`This path supports ${allow.join(', ')}`);
    this.allow = allow;
  }
  override headers(): Record<string, string> {
    return { Allow: this.allow.join(', ') };
  }
}

export class PayloadTooLargeError extends ApiError {
  override name = 'PayloadTooLargeError';
  override readonly code = 'payload_too_large';
  /** The limit the body broke; the answer states the contract's limit (errorCatalogue). */
  constructor(limitBytes: number) {
    super(`Request body exceeds ${limitBytes} bytes`);
  }
}

export class UnsupportedMediaTypeError extends ApiError {
  override name = 'UnsupportedMediaTypeError';
  override readonly code = 'unsupported_media_type';
  constructor() {
    super(errorCatalogue.unsupported_media_type.message);
  }
}
