/**
 * RFC 3339 date-times (`2026-11-24T10:00:00Z`, `2026-11-24T12:00:00.5+02:00`) to unix seconds,
 * checked strictly: a zone is required, and month, day, hour, minute and second must exist.
 */
const PATTERN = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : DAYS[month - 1];
}

/** Unix seconds (fraction kept) of an RFC 3339 date-time, or null when `text` is not one. */
export function parseRfc3339(text: string): number | null {
  const m = PATTERN.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  // Second 60 is a leap second; RFC 3339 allows it and it counts as the next minute's 0.
  if (hour > 23 || minute > 59 || second > 60) return null;
  let offset = 0;
  const zone = m[8];
  if (zone !== 'Z' && zone !== 'z') {
    const oh = Number(zone.slice(1, 3));
    const om = Number(zone.slice(4, 6));
    if (oh > 23 || om > 59) return null;
    offset = (zone[0] === '-' ? -1 : 1) * (oh * 3600 + om * 60);
  }
  const fraction = m[7] ? Number(m[7]) : 0;
  // Date.UTC maps years 0-99 to 1900-1999; setUTCFullYear keeps the year as written. The time is
  // added afterwards so that second 60 rolls into the next day (and year) correctly.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getTime() / 1000 + hour * 3600 + minute * 60 + second + fraction - offset;
}
