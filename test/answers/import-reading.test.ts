import { readFile } from 'node:fs/promises';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { loginCookie } from '../factories.js';
import { useTestApp } from '../helper.js';
import { answerWorkspace } from './answer-fixtures.js';
import { warmReaders } from './html-pages.js';

/** The knowledge import's server-side reading (#35 item 3), with real files: a help-center page and PDFs. */
// Files are read under the readers' deadline: one a loaded machine can keep (the deadline has its own test).
const t = useTestApp({ ATTACHMENT_READ_TIMEOUT_MS: '30000' });
beforeAll(() => warmReaders(t.app.attachmentReader), 300_000);

async function readFiles(files: { filename: string; content: Buffer }[]) {
  const w = await answerWorkspace(t);
  const { cookie } = await loginCookie(t.app, w.owner.email, w.owner.password);
  const res = await t.app.inject({
    method: 'POST',
    url: `/agent/workspaces/${w.workspaceId}/articles/read-files`,
    headers: { cookie },
    payload: { files: files.map((f) => ({ filename: f.filename, contentBase64: f.content.toString('base64') })) },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().texts as { filename: string; title: string | null; text: string | null; problem: string | null }[];
}

/** A PDF with a large heading over body text, and a metadata Title that differs from it. */
async function pdfWithHeading() {
  const pdf = await PDFDocument.create();
  pdf.setTitle('warranty_v3_final');
  const page = pdf.addPage();
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  page.drawText('Acme support', { x: 40, y: 790, size: 9, font });
  page.drawText('Warranty and repairs', { x: 40, y: 740, size: 24, font: bold });
  page.drawText('Every device carries a two-year warranty, parts and labour.', { x: 40, y: 700, size: 12, font });
  page.drawText('Send it to us with the receipt and we repair or replace it.', { x: 40, y: 684, size: 12, font });
  return Buffer.from(await pdf.save());
}

describe('reading files for the knowledge import', () => {
  it('an HTML page gives its main content as Markdown (headings, lists, links), titled by its first heading; navigation, sidebar and footer left out', async () => {
    const content = await readFile(new URL('./fixtures/help-center-refunds.html', import.meta.url));
    const [page] = await readFiles([{ filename: 'refunds.html', content }]);
    expect(page!.title).toBe('How refunds work');
    const body = page!.text!;
    expect(body).toContain('We refund any **annual** plan in full within 30 days of purchase');
    expect(body).toContain('[our terms of service](https://acme.example/legal/terms)');
    expect(body).toContain('## Asking for a refund');
    expect(body).toMatch(/^1\. Open \*Settings\* and choose \*\*Billing\*\*\.$/m);
    expect(body).toMatch(/^3\. Choose `Request refund` and tell us why:\n {2}- the plan did not fit your team\n {2}- you were charged twice$/m);
    expect(body).toContain('## When the money arrives');
    expect(body).toContain('[contact our billing team](/contact)');
    // What surrounds the article is not part of it.
    for (const chrome of ['Acme Help Center', 'Home', 'Search the help center', 'In this section', 'Payment methods', 'Privacy', '© 2026']) expect(body).not.toContain(chrome);
    // The title is not said again at the top of the body.
    expect(body).not.toMatch(/^#? ?How refunds work/);
  });

  it('an HTML page without an <h1> is titled by its <title>', async () => {
    const html = '<html><head><title>Opening hours</title></head><body><p>We answer from 9 to 5, Monday to Friday, and on Saturdays from 10 to 2.</p></body></html>';
    const [page] = await readFiles([{ filename: 'hours.htm', content: Buffer.from(html) }]);
    expect(page).toMatchObject({ title: 'Opening hours', text: 'We answer from 9 to 5, Monday to Friday, and on Saturdays from 10 to 2.', problem: null });
  });

  it('a PDF is titled by its first heading (not its file name or metadata), which leaves the body', async () => {
    const [pdf] = await readFiles([{ filename: 'warranty_v3.pdf', content: await pdfWithHeading() }]);
    expect(pdf!.title).toBe('Warranty and repairs');
    expect(pdf!.text).toContain('Every device carries a two-year warranty, parts and labour.');
    expect(pdf!.text).not.toContain('Warranty and repairs');
  });

  it('a PDF of one type size has no heading: its metadata Title, when it has one', async () => {
    const doc = await PDFDocument.create();
    doc.setTitle('Shipping times');
    doc.addPage().drawText('We ship within two days; express orders leave the next morning.', { x: 40, y: 700, size: 12, font: await doc.embedFont(StandardFonts.Helvetica) });
    const [pdf] = await readFiles([{ filename: 'ship.pdf', content: Buffer.from(await doc.save()) }]);
    expect(pdf).toMatchObject({ title: 'Shipping times', text: 'We ship within two days; express orders leave the next morning.' });
  });
});
