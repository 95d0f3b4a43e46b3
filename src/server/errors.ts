/**
 * One error type for the whole server. Routes and services throw AppError; the error handler in app.ts
 * turns it into `{ message, code }` with its status. Never branch on an error's message text: use `code`.
 */
export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly extra: Record<string, unknown> | undefined;

  constructor(status: number, code: string, message: string, extra?: Record<string, unknown>) {
    super(message);
    this.name = 'AppError';
    this.status = status;
    this.code = code;
    this.extra = extra;
  }
}

export const badRequest = (message: string, code = 'validation_failed', extra?: Record<string, unknown>) =>
  new AppError(400, code, message, extra);
export const unauthorized = (message = 'Auth session missing!', code = 'session_missing') =>
  new AppError(401, code, message);
export const paymentRequired = (message: string, code: string, extra?: Record<string, unknown>) =>
  new AppError(402, code, message, extra);
export const forbidden = (message = 'Forbidden', code = 'forbidden') => new AppError(403, code, message);
export const notFound = (message = 'Not found', code = 'not_found') => new AppError(404, code, message);
export const conflict = (message: string, code = 'conflict') => new AppError(409, code, message);
export const gone = (message: string, code = 'gone') => new AppError(410, code, message);
export const preconditionFailed = (message: string, code = 'precondition_failed') =>
  new AppError(412, code, message);
export const payloadTooLarge = (message = 'Request body is too large', code = 'payload_too_large') =>
  new AppError(413, code, message);
export const unprocessable = (message: string, code: string, extra?: Record<string, unknown>) =>
  new AppError(422, code, message, extra);
export const tooManyRequests = (message = 'Too many requests, please try again later.') =>
  new AppError(429, 'over_request_rate_limit', message);
export const serviceUnavailable = (message: string, code: string) => new AppError(503, code, message);

/**
 * The database could not write for lack of disk space (SQLSTATE 53100 disk_full, e.g. PostgreSQL's
 * "could not extend file ...: No space left on device"): the driver's error, found through Drizzle's wrapper
 * of it, or undefined. The error handler answers 507 `storage_full`; see docs/reliability.md ("Faults").
 */
export function diskFullError(error: unknown): { message: string; code: string } | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const { code, cause, message } = current as { code?: unknown; cause?: unknown; message?: unknown };
    if (code === '53100') return { message: String(message), code };
    current = cause;
  }
  return undefined;
}
