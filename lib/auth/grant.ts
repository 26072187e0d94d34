/**
 * What a limited identity may do: scopes over a set of schedulers. A service
 * token (./service-tokens.ts) always carries one; an operator signed in
 * through an OpenID Connect group mapped with a selector
 * (`payments=operator:team=payments`, ./oidc/roles.ts) carries every scope
 * over that selector. An identity without a grant is unlimited.
 *
 * Scopes:
 * - `read`: every read (without it, a token's GET is refused, the audit included);
 * - `intents`: disable or enable its schedulers (and the actions that change
 *   what runs, such as run-now);
 * - `maintenance`: maintenance windows and bulk actions on its schedulers;
 * - `reports`: mint and revoke report tokens of its schedulers.
 * Anything else — labels, alert modes, fault drills, service tokens — needs an
 * unlimited identity (./guard.ts).
 *
 * Guarantees: pure. A scheduler is covered only when it is named in the
 * grant's list, or its labels (as stored now) match the grant's selector; a
 * scheduler whose labels are unknown (not registered) is covered by a list
 * that names it, never by a selector.
 */
import { SERVICE_TOKEN_SCOPES, type ServiceTokenScope } from '../api/service-token-scopes';
import { type Labels } from '../limits/labels';
import { formatSelector, matchesSelector, parseSelector, type Selector } from '../limits/selector';

/** A list of scheduler names, or label selectors of which any one may select a scheduler. */
type GrantTarget = { kind: 'schedulers'; names: ReadonlySet<string> } | { kind: 'selector'; selectors: readonly Selector[] };

export interface Grant {
  scopes: ReadonlySet<ServiceTokenScope>;
  target: GrantTarget;
}

export function isScope(value: string): value is ServiceTokenScope {
  return (SERVICE_TOKEN_SCOPES as readonly string[]).includes(value);
}

/** A grant over selectors' texts (any of them); null when one does not parse (callers validated them before storing). */
export function selectorGrant(scopes: Iterable<ServiceTokenScope>, texts: readonly string[]): Grant | null {
  const selectors: Selector[] = [];
  for (const text of texts) {
    const parsed = parseSelector(text);
    if (!parsed.ok) return null;
    selectors.push(parsed.selector);
  }
  return { scopes: new Set(scopes), target: { kind: 'selector', selectors } };
}

export function schedulersGrant(scopes: Iterable<ServiceTokenScope>, names: Iterable<string>): Grant {
  return { scopes: new Set(scopes), target: { kind: 'schedulers', names: new Set(names) } };
}

/** Whether `grant` (null: unlimited) includes `scope` at all. */
export function hasScope(grant: Grant | null, scope: ServiceTokenScope): boolean {
  return grant === null || grant.scopes.has(scope);
}

/** Whether `grant` (null: unlimited) covers this scheduler; `labels` null: not registered (its labels unknown). */
export function coversScheduler(grant: Grant | null, name: string, labels: Labels | null): boolean {
  if (grant === null) return true;
  if (grant.target.kind === 'schedulers') return grant.target.names.has(name);
  return labels !== null && grant.target.selectors.some((selector) => matchesSelector(selector, labels));
}

/** The grant's target in words, for refusals: `team=payments`, or the list of names. */
export function describeTarget(grant: Grant): string {
  return grant.target.kind === 'selector'
    ? `the schedulers selected by ${grant.target.selectors.map((selector) => JSON.stringify(formatSelector(selector))).join(' or ')}`
    : `the schedulers ${[...grant.target.names].join(', ')}`;
}
