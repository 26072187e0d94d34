/**
 * Groups to roles for OpenID Connect sign-in: parsing the mapping
 * (`LEASEBOARD_OIDC_ROLES="sre-admins=admin,payments=operator"`) and the
 * role a set of groups earns.
 *
 * Guarantees: pure. A user in several mapped groups gets the highest of their
 * roles. A user in no mapped group reads only (viewer) when anonymous viewing
 * is allowed, and gets no session at all when it is not (`null`): with
 * LEASEBOARD_ANONYMOUS=none the mapping is the list of who may look, so an
 * account the provider knows but the mapping does not is refused.
 */
export type Role = 'viewer' | 'operator' | 'admin';

export const ROLES: readonly Role[] = ['viewer', 'operator', 'admin'];

const RANK: Record<Role, number> = { viewer: 0, operator: 1, admin: 2 };

/** Whether `role` includes everything `needed` may do. */
const atLeast = (role: Role, needed: Role): boolean => RANK[role] >= RANK[needed];

export type RoleMapping = ReadonlyMap<string, Role>;

export class RoleMappingError extends Error {}

const GROUP = /^[^\s,=]{1,200}$/;

/** `group=role,group=role`; throws RoleMappingError saying which entry is wrong (never a secret: groups are not). */
export function parseRoleMapping(raw: string): RoleMapping {
  const mapping = new Map<string, Role>();
  for (const entry of raw.split(',').map((part) => part.trim())) {
    if (entry === '') continue;
    const [group, role, extra] = entry.split('=').map((part) => part.trim());
    if (extra !== undefined || group === undefined || role === undefined)
      throw new RoleMappingError(`${JSON.stringify(entry.slice(0, 80))}: expected group=role`);
    if (!GROUP.test(group)) throw new RoleMappingError(`${JSON.stringify(group.slice(0, 80))}: a group is 1–200 characters without spaces, commas or =`);
    if (!(ROLES as readonly string[]).includes(role))
      throw new RoleMappingError(`${JSON.stringify(entry.slice(0, 80))}: the role must be one of ${ROLES.join(', ')}`);
    if (mapping.has(group) && mapping.get(group) !== role) throw new RoleMappingError(`${JSON.stringify(group)} is mapped twice, to different roles`);
    mapping.set(group, role as Role);
  }
  return mapping;
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

/** The groups claim's value as a list of strings: an array of strings, or one string; anything else is no groups. */
export function groupsOf(claims: Record<string, unknown>, claim: string): string[] {
  const value = claims[claim];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string').slice(0, 1000);
  return [];
}
