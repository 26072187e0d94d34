import type pg from 'pg';

/**
 * Test-only: run a pruner fold (a leaseboard_fold_* function: lease, epoch, batch → rows folded) in
 * batches of `batch` until it folds nothing; how many it folded in all.
 */
export async function foldUntilDone(db: Pick<pg.PoolClient, 'query'>, fn: string, fence: { lease: string; epoch: number }, batch = 5): Promise<number> {
  let folded = 0;
  for (let round = 0; round < 500; round++) {
    const { rows } = await db.query<{ n: number }>(`SELECT ${fn}($1, $2, $3) AS n`, [fence.lease, fence.epoch, batch]);
    if (rows[0]!.n === 0) return folded;
    folded += rows[0]!.n;
  }
  throw new Error(`${fn} did not finish`);
}
