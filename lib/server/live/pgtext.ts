/**
 * Cheap decoding of the facts read's columns: node-postgres type parsers that
 * keep text as text (no Date objects), and UTC wall-time text → ISO-8601.
 *
 * Guarantees: `isoFromUtc` maps PostgreSQL's `timestamp` text output
 * (`YYYY-MM-DD HH:MM:SS[.ffffff]`, ISO DateStyle, which every pool sets: db/session-settings.ts)
 * to `YYYY-MM-DDTHH:MM:SS.mmmZ`, truncating to the millisecond exactly as
 * `Date#toISOString` would; `RAW_TYPES` parses booleans and numbers, and
 * leaves every other type as the server's text.
 * Non-guarantees: years outside 0001–9999 and ±infinity are not handled (the
 * database clock never writes them).
 */

const BOOL = 16;
const INT8 = 20;
const INT2 = 21;
const INT4 = 23;
const FLOAT4 = 700;
const FLOAT8 = 701;
const NUMERIC = 1700;

const asText = (value: string) => value;
const asBool = (value: string) => value === 't';

export const RAW_TYPES = {
  getTypeParser(oid: number): (value: string) => unknown {
    switch (oid) {
      case BOOL:
        return asBool;
      case INT2:
      case INT4:
      case INT8:
      case FLOAT4:
      case FLOAT8:
      case NUMERIC:
        return Number;
      default:
        return asText;
    }
  },
};

/** `2026-11-30 16:00:00.123456` → `2026-11-30T16:00:00.123Z`. */
export function isoFromUtc(text: string): string {
  const date = text.slice(0, 10);
  const time = text.slice(11, 19);
  if (text.length <= 20) return `${date}T${time}.000Z`;
  const frac = text.slice(20, 23);
  return `${date}T${time}.${frac.length === 3 ? frac : frac.padEnd(3, '0')}Z`;
}
