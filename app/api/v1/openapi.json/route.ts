// GET /api/v1/openapi.json — the API description (lib/server/http/openapi.ts).
import { openApiRoute } from '@/lib/server';

export function GET(): Promise<Response> {
  return openApiRoute();
}
