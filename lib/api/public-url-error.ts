/** A deployment URL setting that cannot be used: `variable` names it, `problem` says why (never echoing credentials). */
export class PublicUrlError extends Error {
  override readonly name = 'PublicUrlError';
  constructor(
    readonly variable: string,
    readonly problem: string,
  ) {
    super(`${variable} ${problem}`);
  }
}
