/**
 * `text_normalization: true`: written forms eSpeak would read symbol by symbol or skip are turned
 * into words first (eSpeak itself already reads numbers, dates and common abbreviations in every
 * language, so this only covers symbols and units, in English). Tags are left alone.
 */
const RULES: Array<[RegExp, string]> = [
  [/(\d)\s*%/g, '$1 percent'],
  [/\$\s?(\d+(?:\.\d+)?)/g, '$1 dollars'],
  [/€\s?(\d+(?:\.\d+)?)/g, '$1 euros'],
  [/£\s?(\d+(?:\.\d+)?)/g, '$1 pounds'],
  [/(\d)\s?km\b/g, '$1 kilometres'],
  [/(\d)\s?kg\b/g, '$1 kilograms'],
  [/(\d)\s?°C\b/g, '$1 degrees Celsius'],
  [/\s&\s/g, ' and '],
  [/(\w)@(\w)/g, '$1 at $2'],
  [/\s\+\s/g, ' plus '],
  [/\s=\s/g, ' equals '],
];

export function normalizeText(text: string): string {
  let out = text;
  for (const [re, to] of RULES) out = out.replace(re, to);
  return out;
}
