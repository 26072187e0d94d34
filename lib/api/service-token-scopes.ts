/**
 * What a service token may do: the one list. The contract (./schemas.ts), the
 * grant check (lib/auth/grant.ts) and the admin page read it; the table's
 * CHECK (migration 0038_service_tokens) lists the same. A module without
 * dependencies, so the browser can offer the scopes without the contract's zod.
 */
export const SERVICE_TOKEN_SCOPES = ['read', 'intents', 'maintenance', 'reports'] as const;

export type ServiceTokenScope = (typeof SERVICE_TOKEN_SCOPES)[number];
