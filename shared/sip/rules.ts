/**
 * The rules of SIP values, pure (no Node): E.164 numbers, CIDR blocks, webhook URLs, refer
 * targets (`tel:+E.164` or `sip:user@host`) and DTMF digits. Each check returns null when the
 * value is fine, else a message a person can act on (naming the field and the value).
 */

/** E.164: `+`, a country code that does not start with 0, at most 15 digits in all. */
const E164 = /^\+[1-9]\d{1,14}$/;

/** Keys a telephone keypad sends as DTMF (RFC 4733 events 0-15). */
export const DTMF_DIGITS = '0123456789*#ABCD';

function quote(v: string, max = 60): string {
  return JSON.stringify(v.length > max ? `${v.slice(0, max)}…` : v);
}

export function checkE164(field: string, v: unknown): string | null {
  if (typeof v !== 'string') return `${field} must be a string: a phone number in E.164 form such as "+14155550100"`;
  if (E164.test(v)) return null;
  const digits = v.replace(/[\s().-]/g, '');
  const hint = digits !== v && E164.test(digits) ? ` (did you mean "${digits}"? no spaces, dashes or brackets)` : '';
  return `${field} ${quote(v)} is not an E.164 phone number: "+", the country code, then the number, at most 15 digits (for example "+14155550100")${hint}`;
}

/** An IPv4 address as four decimal octets with no leading zeros; its 32 bits, or null. */
function ipv4Bits(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let bits = 0;
  for (const p of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(p) || Number(p) > 255) return null;
    bits = bits * 256 + Number(p);
  }
  return bits;
}

/** An IPv6 address (with `::` and an optional dotted IPv4 tail) as eight 16-bit groups, or null. */
function ipv6Groups(text: string): number[] | null {
  if (!/^[0-9a-fA-F:.]+$/.test(text) || text.split('::').length > 2) return null;
  const expand = (side: string): number[] | null => {
    if (side === '') return [];
    const out: number[] = [];
    const pieces = side.split(':');
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i];
      if (i === pieces.length - 1 && piece.includes('.')) {
        const v4 = ipv4Bits(piece);
        if (v4 === null) return null;
        out.push(Math.floor(v4 / 65536), v4 % 65536);
      } else if (/^[0-9a-fA-F]{1,4}$/.test(piece)) out.push(parseInt(piece, 16));
      else return null;
    }
    return out;
  };
  const [headText, tailText] = text.split('::');
  const head = expand(headText);
  const tail = tailText === undefined ? [] : expand(tailText);
  if (!head || !tail) return null;
  if (tailText === undefined) return head.length === 8 ? head : null;
  const missing = 8 - head.length - tail.length;
  return missing >= 1 ? [...head, ...new Array<number>(missing).fill(0), ...tail] : null;
}

/** The network address of `groups` (16-bit each) under a prefix of `prefix` bits. */
function maskGroups(groups: number[], prefix: number): number[] {
  return groups.map((g, i) => {
    const keep = Math.max(0, Math.min(16, prefix - i * 16));
    return keep === 0 ? 0 : g & ((0xffff << (16 - keep)) & 0xffff);
  });
}

function ipv6Text(groups: number[]): string {
  // Shortest form: the longest run of two or more zero groups becomes "::".
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) [best, bestLen] = [i, j - i];
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`;
}

/** A CIDR block `address/prefix` (IPv4 /0-32, IPv6 /0-128) whose host bits are zero. */
export function checkCidr(field: string, v: unknown): string | null {
  if (typeof v !== 'string') return `${field} must be a string: a CIDR block such as "203.0.113.0/24"`;
  const slash = v.indexOf('/');
  const address = slash < 0 ? v : v.slice(0, slash);
  const prefixText = slash < 0 ? '' : v.slice(slash + 1);
  const v4 = ipv4Bits(address);
  const v6 = v4 === null ? ipv6Groups(address) : null;
  if (v4 === null && v6 === null) return `${field} ${quote(v)} is not a CIDR block: an IPv4 or IPv6 address, "/", and a prefix length (for example "203.0.113.0/24" or "2001:db8::/32")`;
  const max = v4 !== null ? 32 : 128;
  if (slash < 0) return `${field} ${quote(v)} has no prefix length: write "${v}/${max}" for this one address, or the network such as "${v4 !== null ? '203.0.113.0/24' : '2001:db8::/32'}"`;
  if (!/^(0|[1-9]\d{0,2})$/.test(prefixText) || Number(prefixText) > max) return `${field} ${quote(v)}: the prefix length must be a whole number from 0 to ${max}`;
  const prefix = Number(prefixText);
  if (v4 !== null) {
    const network = prefix === 0 ? 0 : (v4 - (v4 % 2 ** (32 - prefix)));
    if (network !== v4) {
      const text = [24, 16, 8, 0].map((s) => Math.floor(network / 2 ** s) % 256).join('.');
      return `${field} ${quote(v)} has host bits set: the network of that block is "${text}/${prefix}"`;
    }
    return null;
  }
  const masked = maskGroups(v6 as number[], prefix);
  if (masked.some((g, i) => g !== (v6 as number[])[i])) return `${field} ${quote(v)} has host bits set: the network of that block is "${ipv6Text(masked)}/${prefix}"`;
  return null;
}

/**
 * WHATWG URL, a global in Node and every browser; shared/ compiles without DOM or Node types,
 * so the little it uses is declared here.
 */
declare const URL: new (input: string) => { protocol: string; username: string; password: string };

/** An absolute http(s) URL with a host and no credentials in it. */
export function checkWebhookUrl(field: string, v: unknown): string | null {
  if (typeof v !== 'string') return `${field} must be a string: the http(s) URL the service posts incoming calls to`;
  let url: InstanceType<typeof URL>;
  try {
    url = new URL(v);
  } catch {
    return `${field} ${quote(v)} is not a URL: give an absolute http(s) URL such as "https://example.com/sip-webhook"`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `${field} ${quote(v)} must use http or https, not ${url.protocol.replace(':', '')}`;
  if (url.username || url.password) return `${field} must not carry a user name or password: the deliveries are signed instead (webhook-signature)`;
  if (v.length > 2048) return `${field} is ${v.length} characters long; the limit is 2048`;
  return null;
}

/** A SIP host: a DNS name or an IPv4 address, or an IPv6 address in brackets; an optional port. */
function isSipHost(text: string): boolean {
  const m = /^(\[[^\]]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(text);
  if (!m) return false;
  if (m[2] !== undefined && (Number(m[2]) < 1 || Number(m[2]) > 65535)) return false;
  const host = m[1];
  if (host.startsWith('[')) return ipv6Groups(host.slice(1, -1)) !== null;
  if (/^[\d.]+$/.test(host)) return ipv4Bits(host) !== null;
  return host.length <= 253 && host.split('.').every((label) => /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/.test(label));
}

/** A refer target: `tel:` and an E.164 number, or `sip:user@host` (RFC 3261 user characters). */
export function checkReferTarget(field: string, v: unknown): string | null {
  const how = 'give "tel:" and an E.164 number ("tel:+14155550123") or a SIP address ("sip:agent@example.com")';
  if (typeof v !== 'string' || v === '') return `${field} is required: ${how}`;
  const lower = v.slice(0, 4).toLowerCase();
  if (lower === 'tel:') {
    const problem = checkE164('the number', v.slice(4));
    return problem ? `${field} ${quote(v)}: ${problem}` : null;
  }
  if (lower === 'sip:') {
    const rest = v.slice(4);
    const at = rest.lastIndexOf('@');
    if (at <= 0) return `${field} ${quote(v)} has no user: a SIP target is "sip:user@host"`;
    const user = rest.slice(0, at);
    // RFC 3261 "user": unreserved, escaped and user-unreserved characters.
    if (!/^([A-Za-z0-9\-_.!~*'()&=+$,;?/]|%[0-9A-Fa-f]{2})+$/.test(user)) return `${field} ${quote(v)}: the user part has characters a SIP URI cannot carry unescaped`;
    if (!isSipHost(rest.slice(at + 1))) return `${field} ${quote(v)}: "${rest.slice(at + 1).slice(0, 60)}" is not a host name or IP address`;
    return null;
  }
  return `${field} ${quote(v)} must start with "tel:" or "sip:": ${how}`;
}

/** A string of DTMF keys (0-9, *, #, A-D), at least one. */
export function checkDigits(field: string, v: unknown, max: number): string | null {
  if (typeof v !== 'string') return `${field} must be a string of keypad keys (0-9, *, #, A-D), such as "12#"`;
  if (v.length === 0) return `${field} is empty: give at least one key (0-9, *, #, A-D)`;
  if (v.length > max) return `${field} has ${v.length} keys; at most ${max} at once`;
  const bad = [...v].filter((c) => !DTMF_DIGITS.includes(c.toUpperCase()));
  if (bad.length > 0) return `${field} ${quote(v)} has keys a keypad does not have (${[...new Set(bad)].map((c) => JSON.stringify(c)).join(', ')}): use 0-9, *, # and A-D`;
  return null;
}
