/**
 * Action classes: every maintenance action declares what it touches.
 *
 * - `read_only`: reads only; safe without authority (may read stale data).
 * - `fenced`: writes to this database; must carry the current epoch and write
 *   through `fencedWrite`, so the resource rejects a stale holder.
 * - `external`: side effects outside this database (mail, object storage…);
 *   they cannot be fenced here. They are refused without a current grant and
 *   receive the epoch to pass on, but the receiving system must check it —
 *   this module cannot.
 *
 * Guarantee: running a `fenced` or `external` action without a fence (no
 * current epoch, or the holder suspects its lease) is refused before the
 * action runs, with a typed result.
 */
import type pg from 'pg';
import type { Fence } from './fence';

export type ActionClass = 'read_only' | 'fenced' | 'external';

export interface ActionContext {
  readonly db: Pick<pg.Pool, 'query'>;
  /** The holder's current fence, or null when it holds no trusted grant. */
  readonly fence: Fence | null;
}

export interface MaintenanceAction<Input, Output> {
  readonly name: string;
  readonly actionClass: ActionClass;
  /** For fenced/external actions `ctx.fence` is guaranteed non-null. */
  run(ctx: ActionContext, input: Input): Promise<Output>;
}

export type ActionResult<Output> = { kind: 'ran'; value: Output } | { kind: 'refused'; action: string; reason: 'no_current_epoch' };

export function defineAction<Input, Output>(action: MaintenanceAction<Input, Output>): MaintenanceAction<Input, Output> {
  return Object.freeze(action);
}

export async function runAction<Input, Output>(action: MaintenanceAction<Input, Output>, ctx: ActionContext, input: Input): Promise<ActionResult<Output>> {
  switch (action.actionClass) {
    case 'read_only':
      break;
    case 'fenced':
    case 'external':
      if (!ctx.fence) return { kind: 'refused', action: action.name, reason: 'no_current_epoch' };
      break;
    default: {
      const unreachable: never = action.actionClass;
      throw new Error(`unknown action class ${String(unreachable)}`);
    }
  }
  return { kind: 'ran', value: await action.run(ctx, input) };
}
