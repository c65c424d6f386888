/**
 * Elements a page may nest at most. Readability's scoring walks each element's descendants and
 * their text, so its time grows with the cube of the nesting (800 nested <div>s took 9.5 s); help
 * pages nest 20 to 40 deep, and 256 read in a fraction of a second.
 */
export const MAX_HTML_DEPTH = 256;

/** Void elements, as htmlparser2 (linkedom's parser) knows them: never opened, so never nested. */
const VOID = new Set(['area', 'base', 'basefont', 'br', 'col', 'command', 'embed', 'frame', 'hr', 'img', 'input', 'isindex', 'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr']);

/** Elements whose content is text up to their closing tag (a script's "<div>" opens nothing). */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp']);

const P = new Set(['p']);
const FORM = new Set(['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea']);
/** An opening tag that closes open elements first, as htmlparser2 does (`<li>` after `<li>`, a `<div>` after `<p>`). */
const CLOSES = new Map<string, Set<string>>([
  ['tr', new Set(['tr', 'th', 'td'])],
  ['th', new Set(['th'])],
  ['td', new Set(['thead', 'th', 'td'])],
  ['li', new Set(['li'])],
  ['option', new Set(['option'])],
  ['optgroup', new Set(['optgroup', 'option'])],
  ['dd', new Set(['dd', 'dt'])],
  ['dt', new Set(['dd', 'dt'])],
  ['rt', new Set(['rt', 'rp'])],
  ['rp', new Set(['rt', 'rp'])],
  ['tbody', new Set(['thead', 'tbody'])],
  ['tfoot', new Set(['thead', 'tbody'])],
  ...['select', 'input', 'output', 'button', 'datalist', 'textarea'].map((tag) => [tag, FORM] as [string, Set<string>]),
  ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'address', 'article', 'aside', 'blockquote', 'details', 'div', 'dl', 'fieldset', 'figcaption', 'figure', 'footer', 'form', 'header', 'hr', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'table', 'ul'].map(
    (tag) => [tag, P] as [string, Set<string>],
  ),
]);

const isNameChar = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 45 || c === 58 || c === 95;

/**
 * How deep the page's elements nest, read from its text in one pass without building anything
 * (time and memory linear in the page, a stack of at most `stopAt` names); stops at `stopAt`. Tags
 * close the way htmlparser2 closes them (void elements, the end tags it implies), so a page of
 * unclosed <p>s or <li>s is not counted as deep; comments and the text of scripts and styles hold
 * no tags. Not a parser: a page it underrates still runs into the reader's deadline and heap limit.
 */
export function htmlDepth(html: string, stopAt = MAX_HTML_DEPTH + 1): number {
  const open: string[] = [];
  /** Where open <svg>s and <math>s are in `open`: inside them "/>" closes an element, as in XML. */
  const foreign: number[] = [];
  const closeTo = (size: number) => {
    open.length = size;
    while (foreign.length && foreign[foreign.length - 1]! >= size) foreign.pop();
  };
  let deepest = 0;
  let at = 0;
  const length = html.length;
  while (at < length) {
    const lt = html.indexOf('<', at);
    if (lt < 0 || lt + 1 >= length) break;
    const next = html.charCodeAt(lt + 1);
    if (next === 33 /* ! */ || next === 63 /* ? */) {
      // A comment runs to "-->", a doctype or processing instruction to ">".
      const end = html.startsWith('<!--', lt) ? html.indexOf('-->', lt + 4) : html.indexOf('>', lt + 2);
      if (end < 0) break;
      at = end + 1;
      continue;
    }
    const closing = next === 47; /* / */
    let nameEnd = lt + (closing ? 2 : 1);
    const nameStart = nameEnd;
    while (nameEnd < length && isNameChar(html.charCodeAt(nameEnd))) nameEnd++;
    if (nameEnd === nameStart) {
      // "<" not followed by a name is text ("a < b").
      at = lt + 1;
      continue;
    }
    const name = html.slice(nameStart, nameEnd).toLowerCase();
    const gt = tagEnd(html, nameEnd);
    if (gt < 0) break;
    at = gt + 1;
    if (closing) {
      const i = open.lastIndexOf(name);
      if (i >= 0) closeTo(i);
      continue;
    }
    const closes = CLOSES.get(name);
    if (closes) while (open.length && closes.has(open[open.length - 1]!)) closeTo(open.length - 1);
    // "<div/>" opens a div in HTML (htmlparser2 agrees); "<path/>" inside an <svg> opens nothing.
    if (VOID.has(name) || (foreign.length && html.charCodeAt(gt - 1) === 47)) continue;
    if (RAW_TEXT.has(name)) {
      const end = indexOfCaseless(html, `</${name}`, at);
      at = end < 0 ? length : end;
      continue;
    }
    if (name === 'svg' || name === 'math') foreign.push(open.length);
    open.push(name);
    if (open.length > deepest) deepest = open.length;
    if (deepest >= stopAt) return deepest;
  }
  return deepest;
}

/** The ">" that ends a tag begun before `at`, past quoted attribute values; -1 when the page ends first. */
function tagEnd(html: string, at: number): number {
  let quote = 0;
  for (let i = at; i < html.length; i++) {
    const c = html.charCodeAt(i);
    if (quote) {
      if (c === quote) quote = 0;
    } else if (c === 34 || c === 39) {
      // A quote opens a value only after "=" (htmlparser2 reads a stray one as part of a name).
      let k = i - 1;
      while (k >= at && (html.charCodeAt(k) === 32 || html.charCodeAt(k) === 9 || html.charCodeAt(k) === 10 || html.charCodeAt(k) === 13)) k--;
      if (html.charCodeAt(k) === 61) quote = c;
    } else if (c === 62) {
      return i;
    }
  }
  return -1;
}

/** indexOf, ignoring ASCII case in `needle` (lower case): the end tag of a script may be </SCRIPT>. */
function indexOfCaseless(html: string, needle: string, from: number): number {
  for (let i = html.indexOf('</', from); i >= 0; i = html.indexOf('</', i + 2)) {
    if (html.slice(i, i + needle.length).toLowerCase() === needle) return i;
  }
  return -1;
}
