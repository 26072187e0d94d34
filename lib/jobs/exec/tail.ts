/**
 * A bounded tail of a child's output: the last `limit` bytes of stdout and
 * stderr interleaved as they arrived. It lives only in the runner's memory
 * and is printed in the runner's own `child_exited` event when the command
 * failed; it is never stored in the database nor shown on the dashboard
 * (a program's output may carry anything).
 */
export class OutputTail {
  private chunks: Buffer[] = [];
  private size = 0;

  constructor(private readonly limit: number) {}

  push(chunk: Buffer): void {
    if (this.limit <= 0) return;
    const kept = chunk.length > this.limit ? chunk.subarray(chunk.length - this.limit) : chunk;
    this.chunks.push(kept);
    this.size += kept.length;
    while (this.size - this.chunks[0]!.length >= this.limit) this.size -= this.chunks.shift()!.length;
  }

  /** The last `limit` bytes as text (a character cut at the start shows as U+FFFD). */
  text(): string {
    const all = Buffer.concat(this.chunks);
    return all.subarray(Math.max(0, all.length - this.limit)).toString('utf8');
  }
}
