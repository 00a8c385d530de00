/**
 * Notice HTML as the console shows it. The server stores notices sanitized already; the console
 * sanitizes again (DOMPurify) before anything reaches the DOM, so a notice can never run script:
 * no script/style/iframe/forms/SVG, no on* handlers, no style attributes, links only http(s)/
 * mailto/tel (opened in a new tab), images only with an http(s) source.
 */
import DOMPurify from 'dompurify';

let purifier: ReturnType<typeof DOMPurify> | undefined;

function getPurifier() {
  if (purifier) return purifier;
  purifier = DOMPurify(window);
  purifier.addHook('afterSanitizeAttributes', (node) => {
    const el = node;
    if (el.tagName === 'IMG' && !/^https?:\/\//i.test(el.getAttribute('src') ?? '')) el.removeAttribute('src');
    if (el.tagName === 'A' && el.hasAttribute('href')) {
      el.setAttribute('target', '_blank');
      el.setAttribute('rel', 'noopener noreferrer');
    }
  });
  return purifier;
}

export function safeNoticeHtml(html: string | undefined | null): string {
  return getPurifier().sanitize(html ?? '', {
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|tel:)/i,
    FORBID_TAGS: [
      'style',
      'script',
      'iframe',
      'frame',
      'object',
      'embed',
      'form',
      'input',
      'button',
      'textarea',
      'select',
      'svg',
      'math',
      'link',
      'meta',
      'base',
    ],
    FORBID_ATTR: ['style', 'srcset'],
    ALLOW_DATA_ATTR: false,
  });
}

/** The notice as plain text (list excerpts): sanitized, then parsed in an inert document. */
export function noticePlainText(html: string | undefined | null, max?: number): string {
  const doc = new DOMParser().parseFromString(
    safeNoticeHtml(html).replace(/<\/(p|div|li|tr|h\d)>|<br\s*\/?>/gi, '$& '),
    'text/html',
  );
  const text = (doc.body.textContent ?? '').replace(/\s+/g, ' ').trim();
  if (max && [...text].length > max) return `${[...text].slice(0, max).join('')}…`;
  return text;
}
