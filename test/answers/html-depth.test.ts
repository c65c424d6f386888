import { describe, expect, it } from 'vitest';
import { htmlDepth, MAX_HTML_DEPTH } from '../../src/answers/attachment-reader/html-depth.js';
import { nestedHtml } from './html-pages.js';

/** The scan that refuses deeply nested pages before they are parsed (#44): deep where the parser would nest, flat where it would not. */
describe('htmlDepth', () => {
  it('counts nested elements, and stops past the limit', () => {
    expect(htmlDepth('<html><body><div><p>Hi</p></div></body></html>')).toBe(4);
    expect(htmlDepth(nestedHtml('div', 200))).toBe(202);
    expect(htmlDepth(nestedHtml('b', 100_000))).toBe(MAX_HTML_DEPTH + 1);
  });

  it('does not count what the parser closes or never opens: void elements, unclosed <p>, <li>, <td>, <option>, "/>" in an <svg>', () => {
    const many = (s: string) => s.repeat(1000);
    expect(htmlDepth(`<body>${many('<p>para<br><img src=x>')}</body>`)).toBe(2);
    expect(htmlDepth(`<ul>${many('<li>item')}</ul>`)).toBe(2);
    expect(htmlDepth(`<table><tbody>${many('<tr><td>a<td>b')}</tbody></table>`)).toBe(4);
    expect(htmlDepth(`<select>${many('<option>x')}</select>`)).toBe(2);
    expect(htmlDepth(`<svg>${many('<path d="M0 0"/>')}</svg>`)).toBe(1);
  });

  it('finds no tags in comments, scripts, styles or attribute values', () => {
    const many = (s: string) => s.repeat(1000);
    expect(htmlDepth(`<div><!-- ${many('<div>')} --><script>var s = "${many('<div>')}";</SCRIPT><style>${many('<b>')}</style><a title="${many('<div>')}">x</a></div>`)).toBe(2);
  });

  it('reads "<div/>" as an open <div>, as HTML parsers do', () => {
    expect(htmlDepth('<div/>'.repeat(1000))).toBe(MAX_HTML_DEPTH + 1);
  });
});
