/**
 * What an epoch number is made of, and how a person reads it.
 *
 * An epoch is `generation × EPOCH_SPAN + tenure`: the generation is the
 * failover generation of the database node that granted it (its timeline − 1,
 * advanced by PostgreSQL at every promotion), the tenure counts grants of one
 * lease within that generation (1, 2, 3 …). The SQL form of the same rule is
 * `leaseboard_epoch_after` (migration failover_generation); a test holds the
 * two equal (lib/lease/epoch.int.test.ts).
 *
 * Guarantees: epochs are compared as plain numbers everywhere (the fence, the
 * archive, the API, metrics): a later generation's epoch is greater than any
 * epoch of an earlier one, so every grant after a promotion outranks every
 * grant before it. Every epoch is below 2^53 (a CHECK on `leases`), so a
 * JavaScript number holds it exactly. A database that never failed over is in
 * generation 0, and its epochs read 1, 2, 3 … as they always did.
 *
 * Shown to a person: generation 0 as the bare tenure (`17`); a later
 * generation as `gen 2 · 17`, most significant first, so two epochs of one
 * lease sort as they read. Machines get the number, never this text.
 */

/** Grants per lease per generation (one fewer, in fact: see epochAfter). */
export const EPOCH_SPAN = 1_000_000_000;

export function generationOf(epoch: number): number {
  return Math.floor(epoch / EPOCH_SPAN);
}

export function tenureOf(epoch: number): number {
  return epoch % EPOCH_SPAN;
}

/** `17` in generation 0; `gen 2 · 17` after failovers. */
export function formatEpoch(epoch: number): string {
  const generation = generationOf(epoch);
  return generation === 0 ? String(tenureOf(epoch)) : `gen ${generation} · ${tenureOf(epoch)}`;
}

export type EpochAfter = { kind: 'epoch'; epoch: number } | { kind: 'refused'; reason: 'generation_behind' | 'generation_exhausted' };

/**
 * The epoch a grant after `previous` (null: the lease's first grant) carries
 * in `generation`: the generation's first when `previous` is older, else the
 * next one. Refused when `previous` is of a later generation (the timeline
 * restarted: the migrator must align it first) or is the generation's last.
 */
export function epochAfter(previous: number | null, generation: number): EpochAfter {
  if (previous === null || generationOf(previous) < generation) return { kind: 'epoch', epoch: generation * EPOCH_SPAN + 1 };
  if (generationOf(previous) > generation) return { kind: 'refused', reason: 'generation_behind' };
  if (tenureOf(previous) === EPOCH_SPAN - 1) return { kind: 'refused', reason: 'generation_exhausted' };
  return { kind: 'epoch', epoch: previous + 1 };
}
