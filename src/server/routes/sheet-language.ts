import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseAcceptLanguage, resolveLanguage } from '../../shared/i18n/languages.js';
import { outputsIn, type Outputs } from '../../shared/i18n/outputs/translate.js';

/**
 * The language of a spreadsheet's header row (issue 34), in the order a page's language is
 * chosen (shared/i18n/languages.ts): `?lang=`, else the signed-in person's setting, else
 * Accept-Language, else English; an unknown `?lang=` gives English. The answer says which
 * (`Content-Language`) and varies with the header it may have been chosen by.
 */
export async function sheetOutputs(
  request: FastifyRequest,
  reply: FastifyReply,
  lang: string | null,
  settingLanguageOf: ((request: FastifyRequest) => Promise<string | null>) | null | undefined,
): Promise<Outputs> {
  // The setting costs a store query: only asked when the URL does not name the language.
  // A store that cannot answer costs the header its language, not the file.
  const setting =
    lang === null && settingLanguageOf ? await settingLanguageOf(request).catch(() => null) : null;
  const o = outputsIn(
    resolveLanguage({
      query: lang,
      setting,
      browser: parseAcceptLanguage(request.headers['accept-language']),
    }),
  );
  reply.header('content-language', o.language).header('vary', 'Accept-Language, Cookie');
  return o;
}
