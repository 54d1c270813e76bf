/**
 * Text-to-speech `language` (spec Limits: BCP-47 or `auto`, case-insensitive) -> an eSpeak NG
 * language voice. The spec's set is mapped explicitly; another well-formed tag is used when eSpeak
 * has its language ("other languages may work with varying accuracy"), else refused. `auto` picks
 * by the text's script (Arabic, Han, kana, Hangul, Devanagari, Bengali, Cyrillic), else English.
 */

/** The spec's languages (Limits), as written there. */
export const TTS_LANGUAGES = ['auto', 'en', 'ar-EG', 'ar-SA', 'ar-AE', 'bn', 'zh', 'fr', 'de', 'hi', 'id', 'it', 'ja', 'ko', 'pt-BR', 'pt-PT', 'ru', 'es-MX', 'es-ES', 'tr', 'vi'] as const;

const SPEC_TO_ESPEAK: Record<string, string> = {
  en: 'en-us',
  'ar-eg': 'ar',
  'ar-sa': 'ar',
  'ar-ae': 'ar',
  bn: 'bn',
  zh: 'cmn',
  fr: 'fr-fr',
  de: 'de',
  hi: 'hi',
  id: 'id',
  it: 'it',
  ja: 'ja',
  ko: 'ko',
  'pt-br': 'pt-br',
  'pt-pt': 'pt',
  ru: 'ru',
  'es-mx': 'es-419',
  'es-es': 'es',
  tr: 'tr',
  vi: 'vi',
};

/** Language voices this eSpeak NG build has (its `--voices` list), beyond the spec's. */
const ESPEAK_LANGUAGES = new Set(
  ('af am an ar as az ba be bg bn bpy bs ca cmn cs cv cy da de el en en-029 en-gb en-gb-scotland en-gb-x-rp en-us eo es es-419 et eu fa fi ' +
    'fr-be fr-ch fr-fr ga gd gn grc gu hak haw he hi hr ht hu hy hyw ia id io is it ja jbo ka kk kl kn ko kok ku ky la lb lfn lt ltg lv mi mk ml ' +
    'mr ms mt my nb nci ne nl nog om or pa pap pl pt pt-br qu quc ro ru ru-lv sd shn si sk sl smj sq sr sv sw ta te th tk tn tr tt ug uk ur uz vi yue').split(' '),
);

const BCP47 = /^[a-z]{2,3}(-[a-z0-9]{2,8})*$/i;

/** The eSpeak language for a request's `language`, or a message saying why not. */
export function espeakLanguage(language: string, text: string): { voice: string } | { error: string } {
  const tag = language.trim().toLowerCase();
  if (tag === 'auto') return { voice: detectScript(text) };
  if (!BCP47.test(tag)) return { error: `language "${language}" is not a BCP-47 code (like "en" or "pt-BR") or "auto".` };
  const mapped = SPEC_TO_ESPEAK[tag] ?? (ESPEAK_LANGUAGES.has(tag) ? tag : ESPEAK_LANGUAGES.has(tag.split('-')[0]) ? tag.split('-')[0] : null);
  if (mapped) return { voice: mapped };
  return { error: `language "${language}" is not supported; use "auto" or one of ${TTS_LANGUAGES.filter((l) => l !== 'auto').join(', ')}.` };
}

/** A language voice by the text's script; English when nothing else is found. */
function detectScript(text: string): string {
  const scripts: Array<[RegExp, string]> = [
    [/[\u3040-\u30ff]/, 'ja'],
    [/[\uac00-\ud7af]/, 'ko'],
    [/[\u4e00-\u9fff]/, 'cmn'],
    [/[\u0600-\u06ff]/, 'ar'],
    [/[\u0900-\u097f]/, 'hi'],
    [/[\u0980-\u09ff]/, 'bn'],
    [/[\u0400-\u04ff]/, 'ru'],
  ];
  for (const [re, voice] of scripts) if (re.test(text)) return voice;
  return 'en-us';
}
