/** Typed lease errors: a `lease:` prefix, the operation, and the cause kept. */
export class LeaseStoreError extends Error {
  constructor(
    readonly operation: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`lease: ${operation}: ${message}`, options);
    this.name = 'LeaseStoreError';
  }
}

/** True for errors whose outcome at the server is unknown (timeouts, dropped connections). */
export function isUnknownOutcome(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: string }).code;
  return (
    /timeout|terminated|Connection terminated|ECONNRESET|EPIPE/i.test(error.message) ||
    code === '57014' /* query_canceled (statement_timeout) */ ||
    code === 'ECONNRESET' ||
    code === 'ECONNREFUSED' ||
    code === '57P01' /* admin_shutdown */
  );
}
