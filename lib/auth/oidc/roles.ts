/**
 * Groups to roles for OpenID Connect sign-in: parsing the mapping
 * (`LEASEBOARD_OIDC_ROLES="sre-admins=admin,payments=operator[team=payments]"`)
 * and the role a set of groups earns.
 *
 * An operator mapping may carry a label selector in brackets
 * (lib/limits/selector.ts; commas inside the brackets belong to it): that
 * group operates only the schedulers the selector selects (../grant.ts).
 * A user whose operator role comes only from such groups is limited to the
 * schedulers any of their selectors selects; an unlimited operator or admin
 * group lifts the limit.
 *
 * Guarantees: pure. A user in several mapped groups gets the highest of their
 * roles. A user in no mapped group reads only (viewer) when anonymous viewing
 * is allowed, and gets no session at all when it is not (`null`): with
 * LEASEBOARD_ANONYMOUS=none the mapping is the list of who may look, so an
 * account the provider knows but the mapping does not is refused.
 */
import { formatSelector, parseSelector } from '../../limits/selector';

export type Role = 'viewer' | 'operator' | 'admin';

export const ROLES: readonly Role[] = ['viewer', 'operator', 'admin'];

const RANK: Record<Role, number> = { viewer: 0, operator: 1, admin: 2 };

/** Whether `role` includes everything `needed` may do. */
const atLeast = (role: Role, needed: Role): boolean => RANK[role] >= RANK[needed];

export type RoleMapping = ReadonlyMap<string, Role>;
/** Operator groups limited to a selector: group → the selector's text. */
export type RoleSelectors = ReadonlyMap<string, string>;

export class RoleMappingError extends Error {}

const GROUP = /^[^\s,=[\]]{1,200}$/;
const ROLE_WITH_SELECTOR = /^([a-z]+)\s*\[(.*)\]$/s;

/** The mapping's entries: split at commas outside brackets (a selector's own commas stay in it). */
function entriesOf(raw: string): string[] {
  const entries: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c === '[') depth += 1;
    else if (c === ']') depth -= 1;
    else if (c === ',' && depth === 0) {
      entries.push(raw.slice(start, i));
      start = i + 1;
    }
    if (depth < 0 || depth > 1) throw new RoleMappingError(`unbalanced brackets near ${JSON.stringify(raw.slice(start, i + 1).slice(0, 80))}`);
  }
  if (depth !== 0) throw new RoleMappingError(`unbalanced brackets near ${JSON.stringify(raw.slice(start).slice(0, 80))}`);
  entries.push(raw.slice(start));
  return entries.map((entry) => entry.trim()).filter((entry) => entry !== '');
}

/**
 * `group=role,group=operator[selector]`; throws RoleMappingError saying which entry is wrong (never a secret:
 * groups and selectors are not).
 */
export function parseRoles(raw: string): { roles: RoleMapping; selectors: RoleSelectors } {
  const roles = new Map<string, Role>();
  const selectors = new Map<string, string>();
  for (const entry of entriesOf(raw)) {
    const at = entry.indexOf('=');
    if (at < 0) throw new RoleMappingError(`${JSON.stringify(entry.slice(0, 80))}: expected group=role`);
    const group = entry.slice(0, at).trim();
    let role = entry.slice(at + 1).trim();
    let selector: string | null = null;
    const limited = ROLE_WITH_SELECTOR.exec(role);
    if (limited) {
      role = limited[1]!;
      selector = limited[2]!.trim();
    }
    if (!GROUP.test(group))
      throw new RoleMappingError(`${JSON.stringify(group.slice(0, 80))}: a group is 1–200 characters without spaces, commas, = or brackets`);
    if (!(ROLES as readonly string[]).includes(role))
      throw new RoleMappingError(`${JSON.stringify(entry.slice(0, 80))}: the role must be one of ${ROLES.join(', ')}, expected group=role`);
    if (selector !== null) {
      if (role !== 'operator') throw new RoleMappingError(`${JSON.stringify(entry.slice(0, 80))}: only an operator role may be limited to a selector`);
      const parsed = parseSelector(selector);
      if (!parsed.ok) throw new RoleMappingError(`${JSON.stringify(group)}: ${parsed.message}`);
      if (parsed.selector.length === 0) throw new RoleMappingError(`${JSON.stringify(group)}: an empty selector limits nothing; write ${group}=operator`);
      selector = formatSelector(parsed.selector);
    }
    if ((roles.has(group) && roles.get(group) !== role) || (roles.has(group) && (selectors.get(group) ?? null) !== selector))
      throw new RoleMappingError(`${JSON.stringify(group)} is mapped twice, to different roles`);
    roles.set(group, role as Role);
    if (selector !== null) selectors.set(group, selector);
  }
  return { roles, selectors };
}

export function parseRoleMapping(raw: string): RoleMapping {
  return parseRoles(raw).roles;
}

/** The role these groups earn, or null: no session (see the module header). */
export function roleFor(groups: readonly string[], mapping: RoleMapping, anonymousViewer: boolean): Role | null {
  let best: Role | null = null;
  for (const group of groups) {
    const role = mapping.get(group);
    if (role !== undefined && (best === null || atLeast(role, best))) best = role;
  }
  return best ?? (anonymousViewer ? 'viewer' : null);
}

/**
 * The selectors an operator's role is limited to, or null: unlimited. Limited only when the role is operator
 * and every operator group among `groups` carries a selector; then any of those selectors selects.
 */
export function selectorsFor(groups: readonly string[], roles: RoleMapping, selectors: RoleSelectors): string[] | null {
  const limits = new Set<string>();
  for (const group of groups) {
    const role = roles.get(group);
    if (role === 'admin') return null;
    if (role !== 'operator') continue;
    const selector = selectors.get(group);
    if (selector === undefined) return null;
    limits.add(selector);
  }
  return limits.size === 0 ? null : [...limits];
}

/** The groups claim's value as a list of strings: an array of strings, or one string; anything else is no groups. */
export function groupsOf(claims: Record<string, unknown>, claim: string): string[] {
  const value = claims[claim];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string').slice(0, 1000);
  return [];
}
