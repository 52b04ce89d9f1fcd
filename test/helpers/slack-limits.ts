/**
 * What Slack accepts in a message, written from its published numbers (Block Kit reference:
 * "Blocks", "Composition objects" and "Block elements"; chat.postMessage and incoming webhooks:
 * "Formatting text" and "Escaping text"), independent of the product's own constants. Returns
 * every breach in words; an empty list is a message Slack takes as it is.
 */
const LIMITS = {
  blocks: 50,
  text: 40_000,
  sectionText: 3000,
  sectionFields: 10,
  fieldText: 2000,
  headerText: 150,
  contextElements: 10,
  actionsElements: 25,
  buttonText: 75,
  buttonUrl: 3000,
  blockId: 255,
};

interface TextObject {
  type?: string;
  text?: unknown;
}

/** mrkdwn must carry &, < and > only as &amp; &lt; &gt; (a raw < starts a link or mention). */
function escapingProblem(where: string, text: string): string | null {
  if (/[<>]/.test(text)) return `${where}: a raw < or > (Slack reads it as a link or a mention)`;
  if (/&(?!amp;|lt;|gt;)/.test(text)) return `${where}: a raw & (Slack reads it as an entity)`;
  return null;
}

function textProblems(where: string, object: unknown, max: number): string[] {
  const text = (object as TextObject | undefined)?.text;
  const type = (object as TextObject | undefined)?.type;
  if (typeof text !== 'string') return [`${where}: no text`];
  const out: string[] = [];
  if (text.length < 1) out.push(`${where}: empty text`);
  if (text.length > max) out.push(`${where}: ${text.length} characters, more than ${max}`);
  if (type !== 'mrkdwn' && type !== 'plain_text') out.push(`${where}: text type ${String(type)}`);
  if (type === 'mrkdwn') {
    const problem = escapingProblem(where, text);
    if (problem) out.push(problem);
  }
  return out;
}

export function slackLimitProblems(message: unknown): string[] {
  const out: string[] = [];
  const { text, blocks } = message as { text?: unknown; blocks?: unknown };
  if (typeof text !== 'string' || text === '')
    out.push('text: missing (the notification and fallback)');
  else {
    if (text.length > LIMITS.text)
      out.push(`text: ${text.length} characters, more than ${LIMITS.text}`);
    const problem = escapingProblem('text', text);
    if (problem) out.push(problem);
  }
  if (blocks === undefined) return out;
  if (!Array.isArray(blocks)) return [...out, 'blocks: not a list'];
  if (blocks.length > LIMITS.blocks)
    out.push(`blocks: ${blocks.length}, more than ${LIMITS.blocks}`);
  blocks.forEach((block: Record<string, unknown>, i) => {
    const at = `blocks[${i}] (${String(block.type)})`;
    if (typeof block.block_id === 'string' && block.block_id.length > LIMITS.blockId) {
      out.push(`${at}: block_id longer than ${LIMITS.blockId}`);
    }
    switch (block.type) {
      case 'section': {
        if (block.text !== undefined)
          out.push(...textProblems(`${at}.text`, block.text, LIMITS.sectionText));
        const fields = (block.fields ?? []) as unknown[];
        if (fields.length > LIMITS.sectionFields)
          out.push(`${at}: more than ${LIMITS.sectionFields} fields`);
        fields.forEach((f, j) =>
          out.push(...textProblems(`${at}.fields[${j}]`, f, LIMITS.fieldText)),
        );
        if (block.text === undefined && fields.length === 0)
          out.push(`${at}: neither text nor fields`);
        break;
      }
      case 'header':
        if ((block.text as TextObject | undefined)?.type !== 'plain_text')
          out.push(`${at}: not plain_text`);
        out.push(...textProblems(`${at}.text`, block.text, LIMITS.headerText));
        break;
      case 'context': {
        const elements = (block.elements ?? []) as unknown[];
        if (elements.length < 1 || elements.length > LIMITS.contextElements) {
          out.push(`${at}: ${elements.length} elements (1 to ${LIMITS.contextElements})`);
        }
        elements.forEach((e, j) =>
          out.push(...textProblems(`${at}.elements[${j}]`, e, LIMITS.sectionText)),
        );
        break;
      }
      case 'actions': {
        const elements = (block.elements ?? []) as Array<Record<string, unknown>>;
        if (elements.length < 1 || elements.length > LIMITS.actionsElements) {
          out.push(`${at}: ${elements.length} elements (1 to ${LIMITS.actionsElements})`);
        }
        elements.forEach((e, j) => {
          const where = `${at}.elements[${j}]`;
          if (e.type !== 'button') return;
          if ((e.text as TextObject | undefined)?.type !== 'plain_text')
            out.push(`${where}: button text not plain_text`);
          out.push(...textProblems(`${where}.text`, e.text, LIMITS.buttonText));
          if (
            e.url !== undefined &&
            (typeof e.url !== 'string' || e.url.length > LIMITS.buttonUrl)
          ) {
            out.push(`${where}: url longer than ${LIMITS.buttonUrl}`);
          }
        });
        break;
      }
      case 'divider':
        break;
      default:
        out.push(`${at}: a block type this check does not know`);
    }
  });
  return out;
}
