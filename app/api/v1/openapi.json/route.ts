// GET /api/v1/openapi.json — the API description (lib/server/openapi.ts).
import { openApiRoute } from '@/lib/server/http/handlers';

export function GET(): Promise<Response> {
  return openApiRoute();
}
